import { useId, useState } from 'react';
import type { ProviderId } from '../../../shared/domain/chat.js';
import type {
  SamplingConsent,
  SamplingMessageView,
  SamplingRequestView,
} from '../../../shared/domain/pending.js';
import { useModels } from '../../hooks/use-models.js';
import { RequestFrame } from './request-frame.js';
import { MessageEditor, OfferedTools, RequestParams } from './sampling-parts.js';
import { buttonLabel, useRespond, type RespondState } from './use-respond.js';

const PROVIDERS: { value: ProviderId; label: string }[] = [
  { value: 'gemini', label: 'Gemini' },
  { value: 'openai', label: 'OpenAI-compatible' },
];

const REMEMBER: { value: SamplingConsent; label: string }[] = [
  { value: 'ask', label: 'Ask every time' },
  { value: 'session', label: 'Allow for this session' },
  { value: 'always', label: 'Always allow this server' },
  { value: 'never', label: 'Never allow this server' },
];

/** A server asking the person's model for an answer: review the request, or the reply. */
export function SamplingCard({ request }: { request: SamplingRequestView }) {
  switch (request.stage) {
    case 'request':
      return <SamplingReview request={request} />;
    case 'reply':
      return <SamplingReply request={request} />;
  }
}

/**
 * The request stage: everything the server wants sent to the model, editable, and which
 * model runs it. What the person approves here is what the model receives.
 */
function SamplingReview({ request }: { request: SamplingRequestView }) {
  const { state, respond } = useRespond(request.id);
  const [messages, setMessages] = useState<SamplingMessageView[]>(request.messages);
  const [systemPrompt, setSystemPrompt] = useState(request.systemPrompt ?? '');
  const [provider, setProvider] = useState<ProviderId>(request.suggestedModel.provider);
  const [model, setModel] = useState(request.suggestedModel.model);
  const [remember, setRemember] = useState<SamplingConsent>('ask');
  const models = useModels(provider, '');
  const busy = state.kind === 'sending';
  // Unique per card: the same request can show in Requests and where its tool call is.
  const listId = `sampling-models-${useId()}`;

  // Another provider's model names mean nothing here: start from its list instead.
  const pickProvider = (next: ProviderId) => {
    setProvider(next);
    setModel(next === request.suggestedModel.provider ? request.suggestedModel.model : '');
  };

  const send = (action: 'approve' | 'deny', label: string) => {
    const keepSystem = request.systemPrompt !== undefined || systemPrompt !== '';
    respond(
      {
        kind: 'sampling',
        action,
        ...(action === 'approve'
          ? { messages, ...(keepSystem ? { systemPrompt } : {}), model: { provider, model: model.trim() } }
          : {}),
        // "Allow" choices only go with Approve, "never" only with Deny.
        ...(action === 'approve' && (remember === 'session' || remember === 'always') ? { remember } : {}),
        ...(action === 'deny' && remember === 'never' ? { remember } : {}),
      },
      label,
    );
  };

  return (
    <RequestFrame
      kind="sampling"
      data-stage="request"
      label={`Sampling request from ${request.serverId}`}
      state={state}
      errorTestId="sampling-error"
    >
      <h3>
        <span className="badge subtle">{request.serverId}</span> wants your model to answer this
      </h3>
      <p className="muted small-print">
        Edit anything before it is sent; the server only sees the model's reply.
      </p>
      <div className="section-title">Messages</div>
      <div className="sampling-messages">
        {messages.map((m, i) => (
          <MessageEditor
            key={i}
            index={i}
            message={m}
            disabled={busy}
            onChange={(next) => setMessages((all) => all.map((x, j) => (j === i ? next : x)))}
          />
        ))}
      </div>
      <label className="field">
        <span className="field-label">System prompt</span>
        <textarea
          rows={3}
          value={systemPrompt}
          disabled={busy}
          placeholder="none"
          onChange={(e) => setSystemPrompt(e.target.value)}
          data-testid="sampling-system"
        />
      </label>
      <RequestParams request={request} />
      {request.tools && request.tools.length > 0 && <OfferedTools tools={request.tools} />}
      <div className="sampling-choices">
        <Choice
          label="Provider"
          value={provider}
          options={PROVIDERS}
          disabled={busy}
          onChange={pickProvider}
          testId="sampling-provider"
        />
        <label className="field">
          <span className="field-label">Model</span>
          <input
            list={listId}
            value={model}
            disabled={busy}
            onChange={(e) => setModel(e.target.value)}
            data-testid="sampling-model"
          />
          <datalist id={listId}>
            {models.models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          {models.error && <span className="field-help">Could not list models: {models.error.message}</span>}
        </label>
        <Choice
          label="Remember"
          value={remember}
          options={REMEMBER}
          disabled={busy}
          onChange={setRemember}
          testId="sampling-remember"
        />
      </div>
      <div className="form-actions">
        <button
          type="button"
          className="primary"
          // "Never allow" with Approve would contradict itself.
          disabled={busy || model.trim() === '' || remember === 'never'}
          title={remember === 'never' ? 'You chose never to allow this server: use Deny' : undefined}
          onClick={() => send('approve', 'Approve')}
          data-testid="sampling-approve"
        >
          {buttonLabel(state, 'Approve')}
        </button>
        <DenyButton state={state} onDeny={() => send('deny', 'Deny')} />
      </div>
    </RequestFrame>
  );
}

/** The reply stage: the model's answer, editable, before it goes back to the server. */
function SamplingReply({ request }: { request: SamplingRequestView }) {
  const { state, respond } = useRespond(request.id);
  const [text, setText] = useState(request.reply?.text ?? '');
  const [skip, setSkip] = useState(false);
  const busy = state.kind === 'sending';
  return (
    <RequestFrame
      kind="sampling"
      data-stage="reply"
      label={`Sampling reply for ${request.serverId}`}
      state={state}
      errorTestId="sampling-error"
    >
      <h3>
        The model answered <span className="badge subtle">{request.serverId}</span>
      </h3>
      <p className="muted small-print">
        {request.reply
          ? `${request.reply.model}${request.reply.stopReason ? ` · stopped: ${request.reply.stopReason}` : ''}`
          : 'no reply text'}{' '}
        · edit it before it is returned to the server.
      </p>
      <textarea
        rows={6}
        value={text}
        disabled={busy}
        onChange={(e) => setText(e.target.value)}
        aria-label="Reply"
        data-testid="sampling-reply-text"
      />
      <label className="checkbox-line">
        <input
          type="checkbox"
          checked={skip}
          disabled={busy}
          onChange={(e) => setSkip(e.target.checked)}
          data-testid="sampling-skip-review"
        />
        Skip reviewing replies from this server
      </label>
      <div className="form-actions">
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() =>
            respond(
              {
                kind: 'sampling',
                action: 'approve',
                replyText: text,
                ...(skip ? { skipReplyReview: true } : {}),
              },
              'Send reply',
            )
          }
          data-testid="sampling-reply-approve"
        >
          {buttonLabel(state, 'Send reply')}
        </button>
        <DenyButton state={state} onDeny={() => respond({ kind: 'sampling', action: 'deny' }, 'Deny')} />
      </div>
    </RequestFrame>
  );
}

/** Deny, the same test id on both stages so a test (or a person) finds it in one place. */
function DenyButton({ state, onDeny }: { state: RespondState; onDeny: () => void }) {
  return (
    <button
      type="button"
      className="danger-text"
      disabled={state.kind === 'sending'}
      onClick={onDeny}
      data-testid="sampling-deny"
    >
      {buttonLabel(state, 'Deny')}
    </button>
  );
}

/** A labelled drop-down over a fixed list of choices. */
function Choice<T extends string>(props: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  disabled: boolean;
  onChange: (value: T) => void;
  testId: string;
}) {
  const { label, value, options, disabled, onChange, testId } = props;
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <select
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value as T)}
        data-testid={testId}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
