import { useCallback, useEffect } from 'react';
import type { AppSettingsState } from '../../shared/domain/app-settings.js';
import type { HostError } from '../../shared/domain/server-state.js';
import type { RequestOf } from '../../shared/ipc/contract.js';
import { asHostError } from '../host/errors.js';
import { useHost, useHostStore } from '../host/host-context.js';
import { applyAppearance } from '../lib/appearance.js';
import { useSnapshot } from './use-host-state.js';

/** App settings (appearance, quick-ask shortcut, where files live), live across windows. */
export interface AppSettingsHandle {
  state: AppSettingsState | null;
  error: HostError | null;
  update: (patch: RequestOf<'appSettings.update'>) => Promise<HostError | null>;
}

/** App settings from the store, and an update whose answer lands in it at once. */
export function useAppSettings(): AppSettingsHandle {
  const host = useHost();
  const store = useHostStore();
  const s = useSnapshot('appSettings');
  const update = useCallback(
    (patch: RequestOf<'appSettings.update'>) =>
      host.invoke('appSettings.update', patch).then(
        (next) => {
          store.put('appSettings', next);
          return null;
        },
        (e: unknown) => asHostError(e),
      ),
    [host, store],
  );
  return {
    state: s.kind === 'ready' ? s.value : null,
    error: s.kind === 'error' ? s.error : null,
    update,
  };
}

/** Keeps <html> in the stored appearance: on load, and whenever any window changes it. */
export function useAppearance(): void {
  const { state } = useAppSettings();
  const settings = state?.settings;
  useEffect(() => {
    if (settings) applyAppearance(settings);
  }, [settings]);
}
