import type { SandboxState } from '../../../shared/domain/server-state.js';
import { plural } from '../../lib/format.js';

/**
 * Whether a stdio server runs in the OS sandbox: "Sandboxed" (with what it can see in the
 * tooltip) or "Sandbox unavailable: why". Nothing for an unsandboxed or remote server.
 */
export function SandboxBadge({ serverId, sandbox }: { serverId: string; sandbox: SandboxState | undefined }) {
  if (!sandbox || sandbox.kind === 'off') return null;
  if (sandbox.kind === 'unavailable') {
    return (
      <span
        className="badge danger sandbox-badge"
        data-sandbox="unavailable"
        data-testid={`server-sandbox-${serverId}`}
        title="The server is not started: it may only run sandboxed."
      >
        Sandbox unavailable: {sandbox.reason}
      </span>
    );
  }
  const net =
    sandbox.network === 'none'
      ? 'no network'
      : sandbox.network === 'allow'
        ? 'the network only to its allowed hosts (Info lists what it tried)'
        : 'the network is not restricted';
  const title = `${sandbox.tool}: sees ${plural(sandbox.paths, 'shared folder')} read-write, the system and its own files read-only; ${net}`;
  return (
    <span
      className="badge ok sandbox-badge"
      data-sandbox="on"
      data-testid={`server-sandbox-${serverId}`}
      title={title}
    >
      Sandboxed
    </span>
  );
}
