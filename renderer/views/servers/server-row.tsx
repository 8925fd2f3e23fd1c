import { useEffect, useRef, useState, type MouseEvent } from 'react';
import type { HostError, ServerSummary } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { plural } from '../../lib/format.js';
import { bundleOf } from './bundle-actions.js';
import { SandboxBadge } from './sandbox-badge.js';
import { SignInBar } from './sign-in-bar.js';
import { StateBadge } from './state-badge.js';

/** Parts of the row that are controls of their own: clicks there do not open the details. */
const OWN_CONTROLS = ['switch', 'server-name-button', 'server-row-auth', 'server-actions'];

type RowAction =
  | { kind: 'idle' }
  | { kind: 'busy'; what: string }
  | { kind: 'confirm-remove' }
  | { kind: 'failed'; error: HostError };

/** One server: state, era, counts, and its actions. Clicking the row opens its details. */
export function ServerRow({
  server,
  selected,
  onSelect,
  onEdit,
  onRemoved,
}: {
  server: ServerSummary;
  selected: boolean;
  onSelect: () => void;
  onEdit: () => void;
  onRemoved: () => void;
}) {
  const host = useHost();
  const [action, setAction] = useState<RowAction>({ kind: 'idle' });
  // A row selected from elsewhere (just added, opened from the chat or the palette) is brought into view.
  const row = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (selected) row.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  const { id, state } = server;
  const enabled = server.config ? server.config.disabled !== true : state.kind !== 'disabled';
  // The switch moves at once; the host's servers.changed confirms it a moment later.
  const [wanted, setWanted] = useState<boolean | null>(null);
  // Once the host agrees, the row follows the host again (adjusted during render, not in an effect).
  if (wanted !== null && wanted === enabled) setWanted(null);

  const run = (what: string, call: () => Promise<unknown>, then?: () => void) => {
    setAction({ kind: 'busy', what });
    call().then(
      () => {
        setAction({ kind: 'idle' });
        then?.();
      },
      (error: unknown) => {
        setWanted(null);
        setAction({ kind: 'failed', error: asHostError(error) });
      },
    );
  };
  const toggle = (next: boolean) => {
    setWanted(next);
    run('toggle', () => host.invoke('servers.setEnabled', { id, enabled: next }));
  };
  const busy = action.kind === 'busy';
  // The row opens the details; a click on one of its own controls does only what that control does.
  const onRowClick = (e: MouseEvent<HTMLDivElement>) => {
    if (e.target instanceof Element && e.target.closest(`.${OWN_CONTROLS.join(', .')}`)) return;
    onSelect();
  };

  return (
    <li>
      {/* The row is a click target for the mouse only; keyboard and screen readers use the name
          button inside it (a role=button row would nest the row's own controls, which axe flags). */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions */}
      <div
        className={`server-row${selected ? ' selected' : ''}`}
        data-testid={`server-row-${id}`}
        onClick={onRowClick}
        ref={row}
      >
        <div className="server-row-main">
          <label className="switch" title={enabled ? 'Disable' : 'Enable'} aria-label={`${id} enabled`}>
            <input
              type="checkbox"
              checked={wanted ?? enabled}
              aria-label={`${id} enabled`}
              disabled={busy || !server.config}
              onChange={(e) => toggle(e.target.checked)}
              data-testid={`toggle-server-${id}`}
            />
            <span className="switch-track" />
          </label>
          <div className="server-name">
            <button
              type="button"
              className="server-name-button"
              aria-current={selected ? 'true' : undefined}
              aria-label={`${id}: show details`}
              onClick={onSelect}
            >
              <strong>{id}</strong>
            </button>
            <span className="badge subtle">{server.transport}</span>
            <EraBadge server={server} />
            <SandboxBadge serverId={id} sandbox={server.sandbox} />
            <BundleBadge server={server} />
          </div>
          <StateBadge serverId={id} state={state} />
        </div>
        <ServerMeta server={server} />
        <div className="server-row-auth">
          <SignInBar serverId={id} auth={server.auth} />
        </div>
        <div className="server-actions">
          {action.kind === 'confirm-remove' ? (
            <span className="confirm">
              Remove {id}?
              <button
                type="button"
                className="danger small"
                onClick={() => run('remove', () => host.invoke('servers.remove', { id }), onRemoved)}
                data-testid={`confirm-remove-${id}`}
              >
                Remove
              </button>
              <button type="button" className="small" onClick={() => setAction({ kind: 'idle' })}>
                Keep
              </button>
            </span>
          ) : (
            <>
              <button
                type="button"
                className="small"
                disabled={busy || !enabled}
                onClick={() => run('restart', () => host.invoke('servers.restart', { id }))}
                data-testid={`restart-server-${id}`}
              >
                {action.kind === 'busy' && action.what === 'restart' ? 'Restarting…' : 'Restart'}
              </button>
              <button
                type="button"
                className="small"
                disabled={busy}
                onClick={onEdit}
                data-testid={`edit-server-${id}`}
              >
                Edit
              </button>
              <button
                type="button"
                className="small danger-text"
                disabled={busy}
                onClick={() => setAction({ kind: 'confirm-remove' })}
                data-testid={`remove-server-${id}`}
              >
                Remove
              </button>
            </>
          )}
        </div>
        {action.kind === 'failed' && <ErrorBox error={action.error} testId={`server-action-error-${id}`} />}
      </div>
    </li>
  );
}

/** An installed .mcpb's version (Remove uninstalls it: files and secrets too). */
function BundleBadge({ server }: { server: ServerSummary }) {
  const bundle = bundleOf(server);
  if (!bundle) return null;
  return (
    <span
      className="badge subtle"
      title={`Installed from the bundle ${bundle.name}`}
      data-testid={`server-bundle-${server.id}`}
    >
      bundle {bundle.version}
    </span>
  );
}

function EraBadge({ server }: { server: ServerSummary }) {
  if (server.state.kind !== 'connected') return null;
  const { protocolEra, protocolVersion } = server.state.info;
  // Neutral wording: both eras are current MCP; the 2026 one differs in being stateless.
  const label =
    protocolEra === 'modern'
      ? `MCP ${protocolVersion ?? '2026-07-28'} (stateless)`
      : `MCP ${protocolVersion ?? '2025'}`;
  return (
    <span
      className={`badge era era-${protocolEra}`}
      title={`Protocol version this server speaks${protocolEra === 'modern' ? ': no session, each request stands alone' : ''}`}
      data-testid={`server-era-${server.id}`}
    >
      {label}
    </span>
  );
}

function ServerMeta({ server }: { server: ServerSummary }) {
  const { state, counts } = server;
  if (!server.config) {
    return (
      <div className="server-meta error-text" data-testid={`server-error-${server.id}`}>
        This entry is not valid; use Edit to fix it.
      </div>
    );
  }
  if (state.kind === 'failed' || state.kind === 'reconnecting') {
    const error = state.kind === 'failed' ? state.error : state.lastError;
    return <ErrorBox error={error} testId={`server-error-${server.id}`} />;
  }
  if (state.kind !== 'connected') return null;
  const info = state.info;
  return (
    <div className="server-meta muted" data-testid={`server-counts-${server.id}`}>
      {info.title ?? info.name} {info.version} · {plural(counts.tools, 'tool')} ·{' '}
      {plural(counts.resources, 'resource')} · {plural(counts.templates, 'template')} ·{' '}
      {plural(counts.prompts, 'prompt')}
    </div>
  );
}
