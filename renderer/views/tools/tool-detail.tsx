import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { CatalogTool } from '../../../shared/domain/catalog.js';
import { ArgsEditorView } from '../../components/schema-form/args-editor-view.js';
import { useArgsEditor } from '../../components/schema-form/use-args-editor.js';
import { InlineRequests, useRequestsOf } from '../../components/requests/inline-requests.js';
import { ToolBadges } from '../../components/tool-badges.js';
import { ToolChangeBadge } from '../../components/tool-change-badge.js';
import { ToolChangeReview } from '../../components/tool-change-review.js';
import { WarningsPanel } from '../../components/tool-warnings/tool-warnings.js';
import { MarkedText } from '../../components/tool-warnings/marked-text.js';
import { ToolAppView } from '../../components/mcp-app/tool-app-view.js';
import { FlowLabelsPanel } from '../../components/flows/flow-labels-panel.js';
import { TaskLine } from '../../components/task-line.js';
import { ToolResultView } from './tool-result-view.js';
import { AlwaysOfferToggle } from '../../components/always-offer-toggle.js';
import { useToolCall } from './use-tool-call.js';

/**
 * One tool: what it says it does, a form for its arguments, and the call's outcome. While a
 * call runs, what its server asks the person (sampling review, form, link) shows below the
 * form, outside it: a card's own form must not nest in this one.
 */
export function ToolDetail({
  entry,
  offered,
  focusRequest = 0,
}: {
  entry: CatalogTool;
  offered: boolean;
  /** Changes when the tool was opened from outside (the palette): its first field takes the focus. */
  focusRequest?: number;
}) {
  const { tool, serverId } = entry;
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (focusRequest === 0) return;
    const first = form.current?.querySelector<HTMLElement>(
      '.args-editor :is(input, select, textarea):not([disabled]):not([data-testid="raw-json-toggle"]), [data-testid="call-tool"]',
    );
    first?.focus();
  }, [focusRequest]);
  const editor = useArgsEditor(tool.inputSchema);
  const { state, call, cancel } = useToolCall(serverId, tool.name);
  const running = state.kind === 'running';
  const asks = useRequestsOf(running ? state.callId : null);
  // The arguments of the last call, for its interactive view (a new call opens a new view).
  const [called, setCalled] = useState<{ args: Record<string, unknown>; n: number } | null>(null);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const collected = editor.collect();
    if (!collected.ok) return;
    setCalled((c) => ({ args: collected.args, n: (c?.n ?? 0) + 1 }));
    call(collected.args);
  };

  return (
    <div className="panel tool-detail" data-testid="tool-detail">
      <form className="tool-form" onSubmit={onSubmit} noValidate ref={form}>
        <div className="detail-head">
          <h2>{tool.title ?? tool.annotations?.title ?? tool.name}</h2>
          <span className="badge subtle">{serverId}</span>
          <ToolBadges annotations={tool.annotations} />
          <ToolChangeBadge trust={entry.trust} />
          {!entry.enabled && <span className="badge subtle">disabled for the model</span>}
          <AlwaysOfferToggle serverId={serverId} tool={tool.name} />
        </div>
        {(tool.title || tool.annotations?.title) && <code className="muted">{tool.name}</code>}
        {/* Once: a changed tool's description is in its review's diff, with the same marks. */}
        {tool.description && entry.trust?.pin !== 'changed' && (
          <p className="description" data-testid="tool-description">
            <MarkedText text={tool.description} warnings={entry.trust?.warnings ?? []} />
          </p>
        )}
        <ToolChangeReview serverId={serverId} tool={tool.name} trust={entry.trust} />
        {entry.flow && <FlowLabelsPanel serverId={serverId} tool={tool.name} flow={entry.flow} />}
        <WarningsPanel
          warnings={entry.trust?.warnings ?? []}
          intro="Its text looks like it could steer the model. Nothing is blocked: switch the tool off for the model if you do not trust it."
          shownAbove={['description']}
        />

        <ArgsEditorView editor={editor} disabled={running} />

        {!offered && (
          <p className="notice" data-testid="tool-not-offered">
            {serverId} is not offering this tool right now (disconnected or restarting).
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="primary" disabled={running || !offered} data-testid="call-tool">
            {asks.length > 0 ? 'Waiting for you…' : running ? 'Calling…' : 'Call tool'}
          </button>
          {running && (
            <button type="button" onClick={cancel} disabled={state.cancelling} data-testid="cancel-tool">
              {state.cancelling ? 'Cancelling…' : 'Cancel'}
            </button>
          )}
        </div>
      </form>
      <InlineRequests requests={asks} />
      <TaskLine callId={running ? state.callId : null} />

      {running && state.progress && (
        <div className="progress" data-testid="tool-progress">
          <progress value={state.progress.progress} max={state.progress.total ?? undefined} />
          <span className="muted">
            {state.progress.total !== undefined
              ? `${state.progress.progress} / ${state.progress.total}`
              : String(state.progress.progress)}
            {state.progress.message ? ` — ${state.progress.message}` : ''}
          </span>
        </div>
      )}
      {state.kind === 'done' && (
        <ToolResultView
          outcome={{ kind: 'result', result: state.result }}
          serverId={serverId}
          elapsedMs={state.elapsedMs}
        />
      )}
      {state.kind === 'done' && called && (
        <ToolAppView
          key={called.n}
          serverId={serverId}
          tool={tool.name}
          args={called.args}
          result={state.result}
        />
      )}
      {state.kind === 'failed' && (
        <ToolResultView
          outcome={{ kind: 'failed', error: state.error, cancelled: state.cancelled }}
          serverId={serverId}
          elapsedMs={state.elapsedMs}
        />
      )}
    </div>
  );
}
