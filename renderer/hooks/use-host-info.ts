import type { HostInfo } from '../../shared/ipc/contract.js';
import { useSnapshot } from './use-host-state.js';

/** The host's version, mode and shell features; refetched on every reconnect, null until known. */
export function useHostInfo(): HostInfo | null {
  const s = useSnapshot('hostInfo');
  return s.kind === 'ready' ? s.value : null;
}
