import { ShieldOff } from 'lucide-react';
import { useRef } from 'react';
import type { PermissionRef, ServerPermissions, ToolPermission } from '../../../shared/domain/permissions.js';
import type { AppPermission } from '../../../shared/domain/mcp-apps.js';
import type { FlowLabel } from '../../../shared/domain/flows.js';
import type { SamplingConsent } from '../../../shared/domain/pending.js';
import { hasGrants } from '../../../shared/domain/permissions.js';
import { useHost } from '../../host/host-context.js';
import { useConversations } from '../../hooks/use-conversations.js';
import type { PermissionActions } from '../../hooks/use-permissions.js';
import { TrustSwitch } from './trust-switch.js';
import { ViewsSwitch } from './views-switch.js';

const DEVICE: Record<AppPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'location',
  clipboardWrite: 'writing to the clipboard',
};

const SAMPLING: Record<SamplingConsent, string> = {
  ask: 'Asks each time',
  session: 'Allowed for this session',
  always: 'Always allowed',
  never: 'Always refused',
};

/** Labels a person set, in words: "none" says no call of it is held, even in a tainted chat. */
function labelText(labels: readonly FlowLabel[]): string {
  return labels.length ? labels.join(', ') : 'none (never held)';
}

/** An ISO time as the person's locale writes it (nothing for records older than the field). */
function when(at: string | undefined): string {
  return at ? ` on ${new Date(at).toLocaleString()}` : '';
}

/**
 * One server's standing permissions: its Trust switch, each "always allowed" tool and its
 * sampling decision, each with Revoke, and Revoke all. Shared by the Permissions view and
 * Servers › Info; `titled` adds the server's name as a heading and leaves the switches'
 * explanations to the Permissions view, which says them once above every card.
 */
export function ServerPermissionsCard({
  entry,
  actions,
  titled,
}: {
  entry: ServerPermissions;
  actions: PermissionActions;
  titled: boolean;
}) {
  const id = entry.serverId;
  const { busy } = actions;
  const any = hasGrants(entry);
  const card = useRef<HTMLElement>(null);
  // A revoked row (and its button) disappears: keep the keyboard in this card, not at the page's top.
  const keepFocus = (done: Promise<void>) =>
    void done.then(() => {
      const active = document.activeElement;
      if (!active || active === document.body || !active.isConnected) card.current?.focus();
    });
  const revoke = (ref: PermissionRef) => keepFocus(actions.revoke(ref));
  return (
    <section
      ref={card}
      tabIndex={-1}
      className="perm-card"
      aria-label={`Permissions of ${id}`}
      data-testid={`permissions-${id}`}
    >
      <div className="perm-card-head">
        {titled && <h2 className="perm-server">{id}</h2>}
        {!entry.configured && <span className="badge">no longer configured</span>}
        {any && (
          <button
            type="button"
            className="small danger-text perm-revoke-all"
            disabled={busy}
            onClick={() => keepFocus(actions.revokeServer(id))}
            aria-label={`Revoke all permissions of ${id}`}
            data-testid={`revoke-all-${id}`}
          >
            <ShieldOff size={14} aria-hidden="true" />
            Revoke all
          </button>
        )}
      </div>
      {entry.configured && (
        <TrustSwitch
          serverId={id}
          trust={entry.trust}
          disabled={busy}
          onChange={(trusted) => void actions.setTrust(id, trusted)}
          sharedHelp={titled}
        />
      )}
      {entry.configured && (
        <ViewsSwitch
          serverId={id}
          // Absent means the defaults: views on, nothing granted.
          enabled={entry.apps?.viewsEnabled ?? true}
          disabled={busy}
          onChange={(enabled) => void actions.setViewsEnabled(id, enabled)}
          sharedHelp={titled}
        />
      )}
      <ul className="perm-list">
        {entry.trust.stale && (
          <PermRow
            label={`Trusted${when(entry.trust.grantedAt)}, for an earlier command: no longer applies`}
            revokeLabel={`Revoke the old trust of ${id}`}
            testId={`revoke-trust-${id}`}
            busy={busy}
            onRevoke={() => revoke({ serverId: id, kind: 'trust' })}
          />
        )}
        {!entry.configured && entry.trust.trusted && (
          <PermRow
            label={`Trusted${when(entry.trust.grantedAt)}`}
            revokeLabel={`Revoke the trust of ${id}`}
            testId={`revoke-trust-${id}`}
            busy={busy}
            onRevoke={() => revoke({ serverId: id, kind: 'trust' })}
          />
        )}
        {entry.tools.map((t) => (
          <ToolRow key={t.tool} serverId={id} tool={t} busy={busy} onRevoke={revoke} />
        ))}
        {entry.sampling && (
          <PermRow
            label={`Using your model (sampling): ${SAMPLING[entry.sampling.consent]}${when(entry.sampling.grantedAt)}${
              entry.sampling.skipReplyReview ? '; replies go back without your review' : ''
            }`}
            revokeLabel={`Revoke the sampling decision of ${id}`}
            testId={`revoke-sampling-${id}`}
            busy={busy}
            onRevoke={() => revoke({ serverId: id, kind: 'sampling' })}
          />
        )}
        {entry.flows?.server && (
          <PermRow
            label={`Flow labels of every tool: ${labelText(entry.flows.server.labels)}${when(entry.flows.server.setAt)}`}
            revokeLabel={`Put the flow labels of ${id}'s tools back to their defaults`}
            testId={`revoke-flow-labels-${id}`}
            busy={busy}
            onRevoke={() => revoke({ serverId: id, kind: 'flow-labels' })}
          />
        )}
        {entry.flows?.tools.map((t) => (
          <PermRow
            key={`flow-${t.tool}`}
            label={`Flow labels of ${t.tool}: ${labelText(t.labels)}${when(t.setAt)}`}
            revokeLabel={`Put the flow labels of ${t.tool} on ${id} back to their defaults`}
            testId={`revoke-flow-labels-${id}-${t.tool}`}
            busy={busy}
            onRevoke={() => revoke({ serverId: id, kind: 'flow-labels', tool: t.tool })}
          />
        ))}
        {entry.apps && entry.apps.permissions.length > 0 && (
          <PermRow
            label={`Interactive views may use: ${entry.apps.permissions.map((p) => DEVICE[p]).join(', ')}${when(entry.apps.grantedAt)}`}
            revokeLabel={`Revoke the interactive view permissions of ${id}`}
            testId={`revoke-app-permissions-${id}`}
            busy={busy}
            onRevoke={() => revoke({ serverId: id, kind: 'app-permissions' })}
          />
        )}
      </ul>
      {entry.tools.length === 0 && !entry.sampling && !entry.apps?.permissions.length && !entry.flows && (
        <p className="muted perm-none" data-testid={`permissions-none-${id}`}>
          No tool is always allowed and sampling asks each time.
        </p>
      )}
    </section>
  );
}

function ToolRow({
  serverId,
  tool,
  busy,
  onRevoke,
}: {
  serverId: string;
  tool: ToolPermission;
  busy: boolean;
  onRevoke: (ref: PermissionRef) => void;
}) {
  const host = useHost();
  const conversations = useConversations();
  const conv =
    tool.conversationId !== undefined && conversations.kind === 'ready'
      ? conversations.conversations.find((c) => c.id === tool.conversationId)
      : undefined;
  return (
    <li className="perm-row" data-testid={`perm-tool-${serverId}-${tool.tool}`}>
      <span className="perm-what">
        <code>{tool.tool}</code> always allowed{when(tool.grantedAt)}
        {conv && (
          <>
            {' '}
            in{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => void host.invoke('app.showConversation', { conversationId: conv.id })}
            >
              {conv.title}
            </button>
          </>
        )}
        {tool.conversationId !== undefined && !conv && conversations.kind === 'ready' && ' in a deleted chat'}
        {!tool.applies && <span className="muted"> (for an earlier command: no longer applies)</span>}
      </span>
      <button
        type="button"
        className="small"
        disabled={busy}
        onClick={() => onRevoke({ serverId, kind: 'tool', tool: tool.tool })}
        aria-label={`Revoke “always allow” for ${tool.tool} on ${serverId}`}
        data-testid={`revoke-tool-${serverId}-${tool.tool}`}
      >
        Revoke
      </button>
    </li>
  );
}

function PermRow({
  label,
  revokeLabel,
  testId,
  busy,
  onRevoke,
}: {
  label: string;
  revokeLabel: string;
  testId: string;
  busy: boolean;
  onRevoke: () => void;
}) {
  return (
    <li className="perm-row">
      <span className="perm-what">{label}</span>
      <button
        type="button"
        className="small"
        disabled={busy}
        onClick={onRevoke}
        aria-label={revokeLabel}
        data-testid={testId}
      >
        Revoke
      </button>
    </li>
  );
}
