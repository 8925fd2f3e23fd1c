import { CheckCircle2, Circle, PlugZap, X } from 'lucide-react';
import type { ChatSettings, SecretStatus } from '../../../shared/domain/chat.js';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import type { ConversationsState } from '../../hooks/use-conversations.js';
import type { ServersState } from '../../hooks/use-servers.js';

/** Where a checklist button or the no-servers banner takes the person. */
export type FirstRunTarget = 'key' | 'add-server' | 'import' | 'servers' | 'folders' | 'composer';

/** One step of the first run, and whether it is done (live). */
export interface FirstRunStep {
  id: 'key' | 'server' | 'folder' | 'question';
  label: string;
  done: boolean;
  action: string;
  target: FirstRunTarget;
  /** A second way to do it (the server step: import from other apps). */
  alt?: { action: string; target: FirstRunTarget };
}

/** The four first-run steps from what the host says now, or null while any of it is unknown. */
export function firstRunSteps(input: {
  settings: ChatSettings | null;
  secrets: SecretStatus | null;
  servers: ServersState;
  /** How many folders are shared (null while unknown). */
  roots: number | null;
  conversations: ConversationsState;
}): FirstRunStep[] | null {
  const { settings, secrets, servers, roots, conversations } = input;
  if (!settings || !secrets || servers.kind !== 'ready' || roots === null) return null;
  if (conversations.kind !== 'ready') return null;
  // An OpenAI-compatible endpoint may be a local server that needs no key.
  const keySet = settings.provider === 'openai' || secrets.geminiApiKey;
  return [
    { id: 'key', label: 'Set a model API key', done: keySet, action: 'Set key', target: 'key' },
    {
      id: 'server',
      label: 'Add an MCP server',
      done: servers.servers.length > 0,
      action: 'Add server',
      target: 'add-server',
      alt: { action: 'Import from other apps', target: 'import' },
    },
    {
      id: 'folder',
      label: 'Share a folder with your servers',
      done: roots > 0,
      action: 'Share folder',
      target: 'folders',
    },
    {
      id: 'question',
      label: 'Ask your first question',
      done: conversations.conversations.some((c) => c.messageCount > 0),
      action: 'Ask',
      target: 'composer',
    },
  ];
}

/** The first-run checklist: each step with its state and a button that goes there. */
export function FirstRunChecklist({
  steps,
  onGo,
  onDismiss,
}: {
  steps: FirstRunStep[];
  onGo: (target: FirstRunTarget) => void;
  onDismiss: () => void;
}) {
  const done = steps.filter((s) => s.done).length;
  return (
    <section className="first-run" aria-labelledby="first-run-title" data-testid="first-run">
      <div className="first-run-head">
        <h2 id="first-run-title">Get started</h2>
        <span className="muted">
          {done} of {steps.length} done
        </span>
        <button
          type="button"
          className="icon-button"
          onClick={onDismiss}
          aria-label="Hide the getting-started list"
          title="Hide this list"
          data-testid="first-run-dismiss"
        >
          <X size={16} aria-hidden="true" />
        </button>
      </div>
      <ol className="first-run-steps">
        {steps.map((s) => (
          <li
            key={s.id}
            className={s.done ? 'done' : undefined}
            data-testid={`first-run-${s.id}`}
            data-done={s.done}
          >
            {s.done ? (
              <CheckCircle2 size={18} className="first-run-icon ok" aria-hidden="true" />
            ) : (
              <Circle size={18} className="first-run-icon" aria-hidden="true" />
            )}
            <span className="first-run-label">
              {s.label}
              <span className="visually-hidden">{s.done ? ' (done)' : ' (not done yet)'}</span>
            </span>
            <button
              type="button"
              className={s.done ? 'small' : 'small primary'}
              onClick={() => onGo(s.target)}
              data-testid={`first-run-go-${s.id}`}
            >
              {s.action}
            </button>
            {s.alt && !s.done && (
              <button
                type="button"
                className="small"
                onClick={() => s.alt && onGo(s.alt.target)}
                data-testid={`first-run-alt-${s.id}`}
              >
                {s.alt.action}
              </button>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** True when no server is connected and none is on its way (connecting, reconnecting, signing in). */
export function noServerConnected(servers: readonly ServerSummary[]): boolean {
  return !servers.some((s) =>
    ['connected', 'connecting', 'reconnecting', 'authenticating'].includes(s.state.kind),
  );
}

/** "No servers connected — add one", with the way there. */
export function NoServersBanner({
  configured,
  onGo,
}: {
  configured: number;
  onGo: (t: FirstRunTarget) => void;
}) {
  return (
    <div className="banner warn no-servers" role="status" data-testid="no-servers">
      <PlugZap size={16} aria-hidden="true" />
      <span>
        No servers connected — add one
        {configured > 0 ? ` (${configured} configured, none connected)` : ''}, so the model has tools to use.
      </span>
      <button type="button" className="small" onClick={() => onGo('add-server')} data-testid="no-servers-add">
        Add server
      </button>
      {configured > 0 && (
        <button type="button" className="small" onClick={() => onGo('servers')} data-testid="no-servers-open">
          Open Servers
        </button>
      )}
    </div>
  );
}
