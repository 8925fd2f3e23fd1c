import type {
  SamplingContentView,
  SamplingMessageView,
  SamplingRequestView,
} from '../../../shared/domain/pending.js';
import { JsonView } from '../../components/content/json-view.js';
import { mediaDataUrl } from '../../components/content/data-url.js';

/**
 * One message of a sampling request. Text is editable; images and audio are shown as
 * checked data: URLs (never HTML), anything else as the host's summary.
 */
export function MessageEditor({
  index,
  message,
  disabled,
  onChange,
}: {
  index: number;
  message: SamplingMessageView;
  disabled: boolean;
  onChange: (next: SamplingMessageView) => void;
}) {
  let texts = 0;
  const setPart = (j: number, part: SamplingContentView) =>
    onChange({ ...message, content: message.content.map((c, k) => (k === j ? part : c)) });
  return (
    <div className={`sampling-message role-${message.role}`} data-testid={`sampling-message-view-${index}`}>
      <div className="sampling-role">{message.role}</div>
      {message.content.map((part, j) => {
        switch (part.type) {
          case 'text': {
            // The first text of message i is `sampling-message-<i>`; any further ones get a suffix.
            const n = texts++;
            return (
              <textarea
                key={j}
                rows={Math.min(12, Math.max(2, part.text.split('\n').length))}
                value={part.text}
                disabled={disabled}
                aria-label={`Message ${index + 1} (${message.role})`}
                onChange={(e) => setPart(j, { type: 'text', text: e.target.value })}
                data-testid={n === 0 ? `sampling-message-${index}` : `sampling-message-${index}-${n}`}
              />
            );
          }
          case 'image': {
            const src = mediaDataUrl('image', part.mimeType, part.data);
            return src ? (
              <img key={j} className="content-image" src={src} alt={`attached to message ${index + 1}`} />
            ) : (
              <Unshowable key={j} what={`image (${part.mimeType})`} />
            );
          }
          case 'audio': {
            const src = mediaDataUrl('audio', part.mimeType, part.data);
            return src ? (
              // eslint-disable-next-line jsx-a11y/media-has-caption -- sampled audio carries no caption track to offer
              <audio key={j} className="content-audio" controls src={src} />
            ) : (
              <Unshowable key={j} what={`audio (${part.mimeType})`} />
            );
          }
          case 'other':
            return (
              <p key={j} className="muted sampling-other">
                {part.summary}
              </p>
            );
        }
      })}
    </div>
  );
}

function Unshowable({ what }: { what: string }) {
  return (
    <p className="muted">
      An {what} that cannot be shown (unexpected type or encoding); it is sent as it is.
    </p>
  );
}

/** The request's parameters, as the server set them (read-only: the model settings are the server's ask). */
export function RequestParams({ request }: { request: SamplingRequestView }) {
  const prefs = request.modelPreferences;
  const hints = (prefs?.hints ?? [])
    .map((h) => h.name)
    .filter((n): n is string => typeof n === 'string' && n !== '');
  const priorities: [string, number][] = [];
  if (typeof prefs?.costPriority === 'number') priorities.push(['cost', prefs.costPriority]);
  if (typeof prefs?.speedPriority === 'number') priorities.push(['speed', prefs.speedPriority]);
  if (typeof prefs?.intelligencePriority === 'number')
    priorities.push(['intelligence', prefs.intelligencePriority]);
  return (
    <dl className="sampling-params" data-testid="sampling-params">
      <dt>Max tokens</dt>
      <dd>{request.maxTokens}</dd>
      <dt>Temperature</dt>
      <dd>{request.temperature ?? 'model default'}</dd>
      <dt>Stop sequences</dt>
      <dd>
        {request.stopSequences && request.stopSequences.length > 0
          ? request.stopSequences.map((s) => JSON.stringify(s)).join(', ')
          : 'none'}
      </dd>
      {request.includeContext && (
        <>
          <dt>Include context</dt>
          <dd>{request.includeContext}</dd>
        </>
      )}
      <dt>Model hints</dt>
      <dd>{hints.length > 0 ? hints.join(', ') : 'none'}</dd>
      <dt>Priorities</dt>
      <dd>{priorities.length > 0 ? priorities.map(([k, v]) => `${k} ${v}`).join(' · ') : 'none'}</dd>
    </dl>
  );
}

/** Tools the server lets the model call inside this request. */
export function OfferedTools({ tools }: { tools: NonNullable<SamplingRequestView['tools']> }) {
  return (
    <div className="sampling-tools" data-testid="sampling-tools">
      <div className="section-title">Tools offered to the model</div>
      <ul>
        {tools.map((t, i) => (
          <li key={i}>
            <code>{t.name}</code>
            {t.description && <span className="muted"> — {t.description}</span>}
            {t.inputSchema && (
              <details className="sampling-tool-schema">
                <summary>Input schema</summary>
                <JsonView value={t.inputSchema} />
              </details>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
