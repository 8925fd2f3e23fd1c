import { hasGrants } from '../../../shared/domain/permissions.js';
import { ErrorBox } from '../../components/error-box.js';
import { ServerPermissionsCard } from '../../components/permissions/server-permissions-card.js';
import { TRUST_HELP, TRUST_HELP_ID } from '../../components/permissions/trust-switch.js';
import { VIEWS_HELP, VIEWS_HELP_ID } from '../../components/permissions/views-switch.js';
import { usePermissionActions, usePermissions } from '../../hooks/use-permissions.js';

/**
 * Everything a person allowed to happen without asking, per server: trust, "always allowed"
 * tools and sampling decisions, each with Revoke, and a Trust switch per server. Live: a grant
 * made in a chat or a revoke in another window shows here at once.
 */
export function PermissionsView() {
  const state = usePermissions();
  const actions = usePermissionActions();
  const list = state.kind === 'ready' ? state.value : [];
  const nothing = state.kind === 'ready' && !list.some(hasGrants);
  return (
    <section className="view permissions-view" data-testid="permissions-view">
      <header className="view-header">
        <h1>Permissions</h1>
      </header>
      <div className="perm-scroll">
        <p className="muted">
          What servers may do without asking you first. Revoking takes effect at once: the next call asks
          again.
        </p>
        {actions.error && <ErrorBox error={actions.error} testId="permissions-error" />}
        {state.kind === 'loading' && <p className="muted">Loading…</p>}
        {state.kind === 'error' && <ErrorBox error={state.error} />}
        {nothing && (
          <div className="perm-empty" data-testid="permissions-empty">
            <p>
              <strong>Nothing runs without asking.</strong> Every tool call and every request to use your
              model asks you first.
            </p>
            <p>Permissions appear here when you:</p>
            <ul>
              <li>choose “Always allow” on a tool’s approval card in a chat;</li>
              <li>turn on Trust for a server below or in Servers › Info;</li>
              <li>choose “Always” or “For this session” when a server asks to use your model.</li>
            </ul>
            {list.length === 0 && <p>No servers are configured yet: add one in Servers.</p>}
          </div>
        )}
        {list.some((e) => e.configured) && (
          <div className="perm-help" data-testid="permissions-help">
            <p id={TRUST_HELP_ID} className="muted trust-help">
              {TRUST_HELP}
            </p>
            <p id={VIEWS_HELP_ID} className="muted trust-help">
              {VIEWS_HELP}
            </p>
          </div>
        )}
        <div className="perm-cards">
          {list.map((entry) => (
            <ServerPermissionsCard key={entry.serverId} entry={entry} actions={actions} titled />
          ))}
        </div>
      </div>
    </section>
  );
}
