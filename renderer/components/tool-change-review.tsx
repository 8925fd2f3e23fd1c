import type { ToolTrust } from '../../shared/domain/tool-trust.js';
import { useHost } from '../host/host-context.js';
import { useBusyCall } from '../hooks/use-busy-call.js';
import { useToolChange } from '../hooks/use-tool-change.js';
import { ErrorBox } from './error-box.js';
import { Icon } from './icons.js';
import { ToolChangeDiff } from './tool-change-diff.js';

/**
 * "Review change" for a tool whose definition changed since it was approved: the diff, and
 * Accept change, which pins the new version and lets its standing approvals apply again.
 * Nothing shows for a tool that reads as pinned.
 */
export function ToolChangeReview({
  serverId,
  tool,
  trust,
}: {
  serverId: string;
  tool: string;
  trust: ToolTrust | undefined;
}) {
  const host = useHost();
  const state = useToolChange(serverId, tool, trust);
  const { busy, error, run } = useBusyCall();
  if (state.kind === 'none' || !trust) return null;
  // The catalog's next snapshot marks the tool pinned, which hides this panel.
  const accept = () =>
    run(host.invoke('tools.acceptChange', { serverId, tool, fingerprint: trust.fingerprint }));
  return (
    <section
      className="tool-change-review"
      aria-labelledby="tool-change-review-title"
      data-testid="tool-change-review"
    >
      <h3 id="tool-change-review-title">
        <Icon name="changed" />
        Review change
      </h3>
      <p className="small-print">
        Until you accept it, every call of this tool asks first, even where you allowed it always or trust its
        server.
      </p>
      {state.kind === 'loading' && <p className="muted">Loading the change…</p>}
      {state.kind === 'error' && <ErrorBox error={state.error} />}
      {state.kind === 'ready' && (
        <>
          <ToolChangeDiff change={state.change} />
          <div className="form-actions">
            <button
              type="button"
              className="primary"
              onClick={accept}
              disabled={busy}
              data-testid="accept-change"
            >
              {busy ? 'Accepting…' : 'Accept change'}
            </button>
          </div>
        </>
      )}
      {error && <ErrorBox error={error} testId="accept-change-error" />}
    </section>
  );
}
