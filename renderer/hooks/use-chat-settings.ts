import { useCallback } from 'react';
import type { ChatSettings, SecretStatus } from '../../shared/domain/chat.js';
import type { HostError } from '../../shared/domain/server-state.js';
import type { RequestOf } from '../../shared/ipc/contract.js';
import { asHostError } from '../host/errors.js';
import { useHost, useHostStore } from '../host/host-context.js';
import { useSnapshot } from './use-host-state.js';

/** Chat settings, live, and a way to change some of them. */
export interface SettingsHandle {
  settings: ChatSettings | null;
  error: HostError | null;
  update: (patch: RequestOf<'settings.update'>) => Promise<HostError | null>;
}

/** Settings from the store (another window may change them), and an update that lands in it. */
export function useChatSettings(): SettingsHandle {
  const host = useHost();
  const store = useHostStore();
  const s = useSnapshot('settings');
  const update = useCallback(
    (patch: RequestOf<'settings.update'>) =>
      host.invoke('settings.update', patch).then(
        (next) => {
          store.put('settings', next);
          return null;
        },
        (e: unknown) => asHostError(e),
      ),
    [host, store],
  );
  return {
    settings: s.kind === 'ready' ? s.value : null,
    error: s.kind === 'error' ? s.error : null,
    update,
  };
}

/** Whether each API key is set (never the key itself), with a way to take a fresher answer. */
export function useSecretStatus(): { status: SecretStatus | null; setStatus: (s: SecretStatus) => void } {
  const store = useHostStore();
  const s = useSnapshot('secretStatus');
  const setStatus = useCallback((next: SecretStatus) => store.put('secretStatus', next), [store]);
  return { status: s.kind === 'ready' ? s.value : null, setStatus };
}
