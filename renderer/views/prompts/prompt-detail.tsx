import { MessageSquarePlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { GetPromptResult, Prompt } from '../../../shared/domain/mcp-types.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ContentBlockView } from '../../components/content/content-blocks.js';
import { ErrorBox } from '../../components/error-box.js';
import {
  PromptArgumentFields,
  argumentsToSend,
  missingArguments,
} from '../../components/prompt-argument-fields.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { handToChat } from '../../store/chat-handoff-store.js';

type GetState =
  | { kind: 'idle' }
  | { kind: 'getting' }
  | { kind: 'got'; result: GetPromptResult }
  | { kind: 'failed'; error: HostError };

/** One prompt: its arguments (with completion), and the messages it expands to. */
export function PromptDetail({
  serverId,
  prompt,
  canComplete,
}: {
  serverId: string;
  prompt: Prompt;
  canComplete: boolean;
}) {
  const host = useHost();
  const [values, setValues] = useState<Record<string, string>>({});
  const [state, setState] = useState<GetState>({ kind: 'idle' });
  const missing = missingArguments(prompt, values);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const args = argumentsToSend(values);
    setState({ kind: 'getting' });
    host.invoke('prompts.get', { serverId, name: prompt.name, args }).then(
      (result) => setState({ kind: 'got', result }),
      (error: unknown) => setState({ kind: 'failed', error: asHostError(error) }),
    );
  };

  return (
    <form className="panel prompt-detail" onSubmit={onSubmit} data-testid="prompt-detail">
      <div className="detail-head">
        <h2>{prompt.title ?? prompt.name}</h2>
        <span className="badge subtle">{serverId}</span>
      </div>
      {prompt.description && <p className="description">{prompt.description}</p>}
      <PromptArgumentFields
        idPrefix="prompt-arg"
        serverId={serverId}
        prompt={prompt}
        values={values}
        onChange={setValues}
        canComplete={canComplete}
      />
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={missing.length > 0 || state.kind === 'getting'}
          data-testid="get-prompt"
        >
          {state.kind === 'getting' ? 'Getting…' : 'Get'}
        </button>
        {missing.length > 0 && <span className="muted">Fill in {missing.join(', ')}</span>}
      </div>
      {state.kind === 'failed' && <ErrorBox error={state.error} testId="prompt-error" />}
      {state.kind === 'got' && (
        <PromptMessages result={state.result} serverId={serverId} name={prompt.name} />
      )}
    </form>
  );
}

/** The messages a prompt expanded to, with the hand-off that puts them into the chat composer. */
function PromptMessages({
  result,
  serverId,
  name,
}: {
  result: GetPromptResult;
  serverId: string;
  name: string;
}) {
  return (
    <div className="prompt-result" data-testid="prompt-result">
      <div className="result-toolbar">
        {result.description && <p className="muted">{result.description}</p>}
        <button
          type="button"
          className="small with-icon"
          title="Put these messages into the chat's message box, to edit and send"
          onClick={() => handToChat({ kind: 'prompt', serverId, name, result })}
          data-testid="prompt-use-in-chat"
        >
          <MessageSquarePlus size={14} aria-hidden="true" /> Use in chat
        </button>
      </div>
      {result.messages.map((m, i) => (
        <div key={i} className={`message message-${m.role}`}>
          <span className="badge subtle role">{m.role}</span>
          <ContentBlockView block={m.content} serverId={serverId} />
        </div>
      ))}
    </div>
  );
}
