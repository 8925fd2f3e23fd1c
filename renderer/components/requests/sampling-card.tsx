import { useId, useState } from 'react';
import type { ProviderId } from '../../../shared/domain/chat.js';
import type {
  SamplingConsent,
  SamplingMessageView,
  SamplingRequestView,
} from '../../../shared/domain/pending.js';
import { ErrorBox } from '../../components/error-box.js';
import { useModels } from '../../hooks/use-models.js';
import { MessageEditor, OfferedTools, RequestParams } from './sampling-parts.js';
import { buttonLabel, useRespond } from './use-respond.js';

const PROVIDERS: { id: ProviderId; label: string }[] = [
  { id: 'gemini', label: 'Gemini' },
  { id: 'openai', label: 'OpenAI-compatible' },
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
    <section
      className="request-card sampling-card"
      data-testid="sampling-card"
      data-stage="request"
      aria-label={`Sampling request from ${request.serverId}`}
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
        <label className="field">
          <span className="field-label">Provider</span>
          <select
            value={provider}
            disabled={busy}
            onChange={(e) => pickProvider(e.target.value as ProviderId)}
            data-testid="sampling-provider"
          >
            {PROVIDERS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
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
        <label className="field">
          <span className="field-label">Remember</span>
          <select
            value={remember}
            disabled={busy}
            onChange={(e) => setRemember(e.target.value as SamplingConsent)}
            data-testid="sampling-remember"
          >
            {REMEMBER.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
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
        <button
          type="button"
          className="danger-text"
          disabled={busy}
          onClick={() => send('deny', 'Deny')}
          data-testid="sampling-deny"
        >
          {buttonLabel(state, 'Deny')}
        </button>
      </div>
      {state.kind === 'failed' && <ErrorBox error={state.error} testId="sampling-error" />}
    </section>
  );
}

/** The reply stage: the model's answer, editable, before it goes back to the server. */
function SamplingReply({ request }: { request: SamplingRequestView }) {
  const { state, respond } = useRespond(request.id);
  const [text, setText] = useState(request.reply?.text ?? '');
  const [skip, setSkip] = useState(false);
  const busy = state.kind === 'sending';
  return (
    <section
      className="request-card sampling-card"
      data-testid="sampling-card"
      data-stage="reply"
      aria-label={`Sampling reply for ${request.serverId}`}
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
        <button
          type="button"
          className="danger-text"
          disabled={busy}
          onClick={() => respond({ kind: 'sampling', action: 'deny' }, 'Deny')}
          data-testid="sampling-deny"
        >
          {buttonLabel(state, 'Deny')}
        </button>
      </div>
      {state.kind === 'failed' && <ErrorBox error={state.error} testId="sampling-error" />}
    </section>
  );
}
