import { ErrorBox } from '../../components/error-box.js';
import { ServerPermissionsCard } from '../../components/permissions/server-permissions-card.js';
import { usePermissionActions, usePermissions } from '../../hooks/use-permissions.js';

/** Servers › Info: this server's standing permissions, with the same Revoke and Trust controls as the Permissions view. */
export function ServerPermissionsSection({ serverId }: { serverId: string }) {
  const state = usePermissions();
  const actions = usePermissionActions();
  const entry = state.kind === 'ready' ? state.value.find((p) => p.serverId === serverId) : undefined;
  return (
    <div data-testid="server-permissions">
      {state.kind === 'error' && <ErrorBox error={state.error} />}
      {actions.error && <ErrorBox error={actions.error} testId="permissions-error" />}
      {entry && <ServerPermissionsCard entry={entry} actions={actions} titled={false} />}
    </div>
  );
}
