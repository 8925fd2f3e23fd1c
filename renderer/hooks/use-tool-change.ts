import { useEffect, useState } from 'react';
import type { HostError } from '../../shared/domain/server-state.js';
import type { ToolChange, ToolTrust } from '../../shared/domain/tool-trust.js';
import { asHostError } from '../host/errors.js';
import { useHost } from '../host/host-context.js';

/** A changed tool's two versions, fetched while the catalog says it is changed. */
export type ToolChangeState =
  | { kind: 'none' }
  | { kind: 'loading' }
  | { kind: 'ready'; change: ToolChange }
  | { kind: 'error'; error: HostError };

type Loaded = Exclude<ToolChangeState, { kind: 'loading' }>;

/**
 * The change of one tool, for its review panel: asked of the host when the catalog marks the
 * tool changed (and again whenever its fingerprint moves on); none once it is pinned.
 */
export function useToolChange(serverId: string, tool: string, trust: ToolTrust | undefined): ToolChangeState {
  const host = useHost();
  // What the answer is for: a newer fingerprint (or another tool) makes an older answer stale.
  const key = trust?.pin === 'changed' ? `${serverId}\u0000${tool}\u0000${trust.fingerprint}` : null;
  const [loaded, setLoaded] = useState<{ key: string; state: Loaded } | null>(null);
  useEffect(() => {
    if (key === null) return;
    let live = true;
    host.invoke('tools.changes', {}).then(
      (list) => {
        const change = list.find((c) => c.serverId === serverId && c.tool === tool);
        if (live) setLoaded({ key, state: change ? { kind: 'ready', change } : { kind: 'none' } });
      },
      (e: unknown) => {
        if (live) setLoaded({ key, state: { kind: 'error', error: asHostError(e) } });
      },
    );
    return () => {
      live = false;
    };
  }, [host, serverId, tool, key]);
  if (key === null) return { kind: 'none' };
  return loaded?.key === key ? loaded.state : { kind: 'loading' };
}
