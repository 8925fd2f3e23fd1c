import { useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ElicitationRequestView } from '../../../shared/domain/pending.js';
import {
  parseRequestedSchema,
  validateElicitContent,
  type ElicitField,
} from '../../../shared/elicitation/elicitation-schema.js';
import { ErrorBox } from '../../components/error-box.js';
import { elicitContentOf } from '../../components/schema-form/elicit-values.js';
import { elicitRootOf } from '../../components/schema-form/field-sources.js';
import { elicitationMode } from '../../components/schema-form/form-mode.js';
import { draftOf, type Draft, type FieldError } from '../../components/schema-form/schema-draft.js';
import { SchemaForm } from '../../components/schema-form/schema-form.js';
import { useFocusFirstInvalid } from '../../components/schema-form/focus-invalid.js';
import { RequestFrame } from './request-frame.js';
import { buttonLabel, useRespond, type RespondState } from './use-respond.js';
import { Icon } from '../../components/icons.js';

/**
 * A server asking the person for information: a form, or a link to open. Decline ("no")
 * and Cancel ("not now") are separate answers, as the spec keeps them apart.
 */
export function ElicitationCard({ request }: { request: ElicitationRequestView }) {
  switch (request.mode) {
    case 'form':
      return <ElicitForm request={request} />;
    case 'url':
      return <ElicitUrl request={request} />;
  }
}

function Warnings({ warnings }: { warnings: string[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="banner warn elicit-warning" role="alert" data-testid="elicit-warning">
      {warnings.map((w, i) => (
        <p key={i}>
          <Icon name="warning" size={14} /> {w}
        </p>
      ))}
    </div>
  );
}

function Message({ request }: { request: ElicitationRequestView }) {
  return (
    <>
      <h3>
        <span className="badge subtle">{request.serverId}</span> asks:
      </h3>
      <p className="elicit-message" data-testid="elicit-message">
        {request.message}
      </p>
    </>
  );
}

/** The card around both modes: who asks and what, with any warnings. */
function ElicitFrame(props: {
  request: ElicitationRequestView;
  label: 'Form' | 'Link';
  state: RespondState;
  children: ReactNode;
}) {
  const { request, label, state, children } = props;
  return (
    <RequestFrame
      kind="elicitation"
      data-mode={request.mode}
      label={`${label} from ${request.serverId}`}
      state={state}
      errorTestId="elicit-send-error"
    >
      <Message request={request} />
      <Warnings warnings={request.warnings} />
      {children}
    </RequestFrame>
  );
}

/** Decline and Cancel, the same on both modes. */
function NoButtons({
  state,
  onAnswer,
}: {
  state: RespondState;
  onAnswer: (action: 'decline' | 'cancel', label: string) => void;
}) {
  const busy = state.kind === 'sending';
  return (
    <>
      <button
        type="button"
        className="danger-text"
        disabled={busy}
        onClick={() => onAnswer('decline', 'Decline')}
        title="Refuse: the server is told you said no"
        data-testid="elicit-decline"
      >
        {buttonLabel(state, 'Decline')}
      </button>
      <button
        type="button"
        disabled={busy}
        onClick={() => onAnswer('cancel', 'Cancel')}
        title="Dismiss without answering"
        data-testid="elicit-cancel"
      >
        {buttonLabel(state, 'Cancel')}
      </button>
    </>
  );
}

function ElicitForm({ request }: { request: ElicitationRequestView }) {
  // The host has already refused schemas outside the spec; a failure here is shown, not thrown.
  const parsed = useMemo(() => parseRequestedSchema(request.requestedSchema), [request.requestedSchema]);
  const { state, respond } = useRespond(request.id);
  const answerNo = (action: 'decline' | 'cancel', label: string) =>
    respond({ kind: 'elicitation', action }, label);
  return (
    <ElicitFrame request={request} label="Form" state={state}>
      {parsed.ok ? (
        <FormFields
          fields={parsed.fields}
          state={state}
          onAccept={(content) => respond({ kind: 'elicitation', action: 'accept', content }, 'Accept')}
          onAnswer={answerNo}
        />
      ) : (
        <>
          <ErrorBox error={{ code: 'bad_schema', message: parsed.error }} />
          <div className="form-actions">
            <NoButtons state={state} onAnswer={answerNo} />
          </div>
        </>
      )}
    </ElicitFrame>
  );
}

function FormFields(props: {
  fields: ElicitField[];
  state: RespondState;
  onAccept: (content: Record<string, unknown>) => void;
  onAnswer: (action: 'decline' | 'cancel', label: string) => void;
}) {
  const { fields, state, onAccept, onAnswer } = props;
  const idPrefix = useId();
  const mode = useMemo(() => elicitationMode(idPrefix), [idPrefix]);
  const root = useMemo(() => elicitRootOf(fields), [fields]);
  const [draft, setDraft] = useState<Draft>(() => draftOf(root, undefined));
  // Errors show on a field once it was edited, and on every field once Accept was pressed.
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [attempts, setAttempts] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, attempts);
  const busy = state.kind === 'sending';

  const built = useMemo(() => elicitContentOf(root, draft), [root, draft]);
  const check = useMemo(() => validateElicitContent(fields, built.content), [fields, built]);
  const errors: FieldError[] = [];
  for (const { name } of fields) {
    if (!submitted && !touched.has(name)) continue;
    const message =
      built.unreadable.get(name) ??
      (check.ok
        ? undefined
        : Object.prototype.hasOwnProperty.call(check.errors, name)
          ? check.errors[name]
          : undefined);
    if (message !== undefined) errors.push({ path: name, message });
  }
  const valid = check.ok && built.unreadable.size === 0;

  const change = (next: Draft, name: string) => {
    setDraft(next);
    setTouched((t) => new Set(t).add(name));
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (valid && check.ok) onAccept(check.content);
    else setAttempts((n) => n + 1);
  };

  return (
    <form ref={formRef} className="elicit-form" onSubmit={onSubmit} noValidate>
      <SchemaForm root={root} draft={draft} errors={errors} disabled={busy} mode={mode} onChange={change} />
      {submitted && !valid && (
        <p className="field-error" role="status" data-testid="elicit-invalid">
          Fix the fields marked above, or decline.
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy} data-testid="elicit-accept">
          {buttonLabel(state, 'Accept')}
        </button>
        <NoButtons state={state} onAnswer={onAnswer} />
      </div>
    </form>
  );
}

/**
 * A link the server wants opened. The whole URL and its domain are shown, since where the
 * person is sent is the decision; the host opens it only after Accept.
 */
function ElicitUrl({ request }: { request: ElicitationRequestView }) {
  const { state, respond } = useRespond(request.id);
  const busy = state.kind === 'sending';
  return (
    <ElicitFrame request={request} label="Link" state={state}>
      <p className="elicit-domain-line">
        Opens a page on{' '}
        <strong className="elicit-domain" data-testid="elicit-domain">
          {request.domain ?? 'an unknown domain'}
        </strong>
      </p>
      <code className="elicit-url" data-testid="elicit-url">
        {request.url ?? ''}
      </code>
      <div className="form-actions">
        <button
          type="button"
          className="primary"
          disabled={busy || !request.url}
          onClick={() => respond({ kind: 'elicitation', action: 'accept' }, 'Open in browser')}
          data-testid="elicit-accept"
        >
          {buttonLabel(state, 'Open in browser')}
        </button>
        <NoButtons
          state={state}
          onAnswer={(action, label) => respond({ kind: 'elicitation', action }, label)}
        />
      </div>
    </ElicitFrame>
  );
}
