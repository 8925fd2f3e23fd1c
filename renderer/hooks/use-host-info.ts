import { useEffect, useState } from 'react';
import type { HostInfo } from '../../shared/ipc/contract.js';
import { useHost, useHostEpoch } from '../host/host-context.js';

/** The host's version, mode and shell features; refetched on every reconnect, null until known. */
export function useHostInfo(): HostInfo | null {
  const host = useHost();
  const epoch = useHostEpoch();
  const [info, setInfo] = useState<HostInfo | null>(null);
  useEffect(() => {
    if (epoch === null) return;
    host.invoke('host.info', {}).then(setInfo, () => setInfo(null));
  }, [host, epoch]);
  return info;
}
