import { useCallback, useState } from 'react';
import type { PermissionRef, PermissionsSnapshot } from '../../shared/domain/permissions.js';
import type { HostError } from '../../shared/domain/server-state.js';
import { asHostError } from '../host/errors.js';
import { useHost, useHostStore } from '../host/host-context.js';
import { useSnapshot } from './use-host-state.js';

/** Standing permissions, live from the store (a snapshot on (re)connect, then every `permissions.changed`). */
export function usePermissions() {
  return useSnapshot('permissions');
}

/** What the permission controls can do, with the last refusal and whether a change is under way. */
export interface PermissionActions {
  revoke(ref: PermissionRef): Promise<void>;
  revokeServer(serverId: string): Promise<void>;
  setTrust(serverId: string, trusted: boolean): Promise<void>;
  /** The server's "Show interactive views" switch (MCP Apps). */
  setViewsEnabled(serverId: string, enabled: boolean): Promise<void>;
  busy: boolean;
  error: HostError | null;
}

/**
 * Revoke and Trust through the host. The answer is the new list, put in the store at once so
 * the view that acted does not wait for the change event (which every other view gets).
 */
export function usePermissionActions(): PermissionActions {
  const host = useHost();
  const store = useHostStore();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostError | null>(null);
  const run = useCallback(
    async (act: () => Promise<PermissionsSnapshot>) => {
      setBusy(true);
      setError(null);
      try {
        store.put('permissions', await act());
      } catch (e) {
        setError(asHostError(e));
      } finally {
        setBusy(false);
      }
    },
    [store],
  );
  return {
    busy,
    error,
    revoke: (ref) => run(() => host.invoke('permissions.revoke', ref)),
    revokeServer: (serverId) => run(() => host.invoke('permissions.revokeServer', { serverId })),
    setTrust: (serverId, trusted) => run(() => host.invoke('permissions.setTrust', { serverId, trusted })),
    setViewsEnabled: (serverId, enabled) =>
      run(async () => {
        await host.invoke('apps.setViewsEnabled', { serverId, enabled });
        return host.invoke('permissions.list', {});
      }),
  };
}
