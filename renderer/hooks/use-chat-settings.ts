import { useCallback, useEffect, useState } from 'react';
import type { ChatSettings, SecretStatus } from '../../../shared/domain/chat.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import type { RequestOf } from '../../../shared/ipc/contract.js';
import { asHostError } from '../../host/errors.js';
import { useHost, useHostEpoch } from '../../host/host-context.js';

/** Chat settings, live, and a way to change some of them. */
export interface SettingsHandle {
  settings: ChatSettings | null;
  error: HostError | null;
  update: (patch: RequestOf<'settings.update'>) => Promise<HostError | null>;
}

/** Settings: a snapshot on (re)connect, then every `settings.changed` (another window may change them). */
export function useChatSettings(): SettingsHandle {
  const host = useHost();
  const epoch = useHostEpoch();
  const [settings, setSettings] = useState<ChatSettings | null>(null);
  const [error, setError] = useState<HostError | null>(null);

  useEffect(() => {
    if (epoch === null) return undefined;
    let live = true;
    let gotEvent = false;
    const off = host.on('settings.changed', (s) => {
      gotEvent = true;
      if (live) setSettings(s);
    });
    host.invoke('settings.get', {}).then(
      (s) => {
        if (live && !gotEvent) setSettings(s);
      },
      (e: unknown) => {
        if (live) setError(asHostError(e));
      },
    );
    return () => {
      live = false;
      off();
    };
  }, [host, epoch]);

  const update = useCallback(
    (patch: RequestOf<'settings.update'>) =>
      host.invoke('settings.update', patch).then(
        (s) => {
          setSettings(s);
          return null;
        },
        (e: unknown) => asHostError(e),
      ),
    [host],
  );

  return { settings, error, update };
}

/** Whether each API key is set (never the key itself), with a way to refresh it. */
export function useSecretStatus(): { status: SecretStatus | null; setStatus: (s: SecretStatus) => void } {
  const host = useHost();
  const epoch = useHostEpoch();
  const [status, setStatus] = useState<SecretStatus | null>(null);
  useEffect(() => {
    if (epoch === null) return undefined;
    let live = true;
    host.invoke('secrets.status', {}).then(
      (s) => {
        if (live) setStatus(s);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [host, epoch]);
  return { status, setStatus };
}
