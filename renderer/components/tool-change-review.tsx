import type { ToolTrust } from '../../shared/domain/tool-trust.js';
import { hostCallError } from '../host/errors.js';
import { useHost } from '../host/host-context.js';
import { useBusyCall } from '../hooks/use-busy-call.js';
import { useChatSettings } from '../hooks/use-chat-settings.js';
import { useToolChange } from '../hooks/use-tool-change.js';
import { ErrorBox } from './error-box.js';
import { Icon } from './icons.js';
import { ToolChangeDiff } from './tool-change-diff.js';

/**
 * "Review change" for a tool whose definition changed since it was pinned: the diff (the new
 * description with its warnings marked), and two ways out: Accept change, which pins the new
 * version and lets its standing approvals apply again, or Switch off for the model, which stops
 * offering it in chat while it stays marked (and back on). Nothing shows for a pinned tool.
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
  const chat = useChatSettings();
  if (state.kind === 'none' || !trust) return null;
  // The catalog's next snapshot marks the tool pinned, which hides this panel.
  const accept = () =>
    run(host.invoke('tools.acceptChange', { serverId, tool, fingerprint: trust.fingerprint }));
  const key = `${serverId}/${tool}`;
  const disabled = chat.settings?.disabledTools ?? [];
  const offered = !disabled.includes(key);
  const switchTo = (on: boolean) =>
    run(
      chat
        .update({ disabledTools: on ? disabled.filter((k) => k !== key) : [...disabled, key] })
        .then((e) => {
          if (e) throw hostCallError(e);
        }),
    );
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
        server. If you do not trust the new version, switch it off for the model: chat stops offering it.
      </p>
      {state.kind === 'loading' && <p className="muted">Loading the change…</p>}
      {state.kind === 'error' && <ErrorBox error={state.error} />}
      {state.kind === 'ready' && (
        <>
          <ToolChangeDiff change={state.change} warnings={trust.warnings} />
          <div className="form-actions">
            <button
              type="button"
              className="primary"
              onClick={accept}
              disabled={busy}
              data-testid="accept-change"
            >
              {busy ? 'Working…' : 'Accept change'}
            </button>
            {chat.settings &&
              (offered ? (
                <button
                  type="button"
                  className="danger-text"
                  onClick={() => switchTo(false)}
                  disabled={busy}
                  data-testid="review-switch-off"
                >
                  Switch off for the model
                </button>
              ) : (
                <>
                  <span className="muted small-print" role="status" data-testid="review-switched-off">
                    Switched off for the model: chat does not offer it.
                  </span>
                  <button
                    type="button"
                    onClick={() => switchTo(true)}
                    disabled={busy}
                    data-testid="review-switch-on"
                  >
                    Offer it to the model again
                  </button>
                </>
              ))}
          </div>
        </>
      )}
      {error && <ErrorBox error={error} testId="accept-change-error" />}
    </section>
  );
}
