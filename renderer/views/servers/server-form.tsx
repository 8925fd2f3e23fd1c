import { useEffect, useRef, useState, type FormEvent } from 'react';
import { MASKED_VALUE, type ServerSummary } from '../../../shared/domain/server-state.js';
import type { HostError } from '../../../shared/ipc/host-error.js';
import { ErrorBox } from '../../components/error-box.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { CommandAssistNotice, useCommandAssist } from './command-assist.js';
import { FormRow } from './form-field.js';
import { OAuthFields } from './oauth-fields.js';
import { SecretFields } from './secret-fields.js';
import { SecretOffers } from './secret-offer.js';
import {
  buildConfig,
  emptyForm,
  fieldErrorsFromHost,
  formFromEntry,
  type FormErrors,
  type FormField,
  type ServerFormValues,
  type TransportChoice,
} from './server-form-model.js';

/** Adding a new server, or editing one that exists. */
export type ServerFormMode = { kind: 'add' } | { kind: 'edit'; server: ServerSummary };

type SubmitState =
  { kind: 'editing' } | { kind: 'saving' } | { kind: 'rejected'; error: HostError; rest: string[] };

/** The add/edit server form; the host validates, and its messages land on the fields they name. */
export function ServerForm({
  mode,
  onSaved,
  onCancel,
}: {
  mode: ServerFormMode;
  onSaved: (s: ServerSummary) => void;
  onCancel: () => void;
}) {
  const host = useHost();
  const existing = mode.kind === 'edit' ? mode.server : null;
  const base = existing ? (existing.config ?? existing.invalidEntry) : null;
  const [values, setValues] = useState<ServerFormValues>(() =>
    existing ? formFromEntry(existing.id, base, existing.transport) : emptyForm(),
  );
  const [errors, setErrors] = useState<FormErrors>({});
  const [submit, setSubmit] = useState<SubmitState>({ kind: 'editing' });
  const nameInput = useRef<HTMLInputElement>(null);
  const commandInput = useRef<HTMLInputElement>(null);
  const assist = useCommandAssist(values, setValues, () => commandInput.current?.focus());
  // A new server starts at its name; an edit keeps the focus where the person clicked.
  const isNew = !existing;
  useEffect(() => {
    if (isNew) nameInput.current?.focus();
  }, [isNew]);

  const set = (field: FormField) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    // A whole command line (or a path with spaces) is settled before saving, not after a
    // misleading "command not found" from the host.
    if (values.transport === 'stdio' && !assist.readyToSave()) return;
    const built = buildConfig(values, base);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    setSubmit({ kind: 'saving' });
    const call = existing
      ? host.invoke('servers.update', { id: existing.id, config: built.config })
      : host.invoke('servers.add', { name: built.name, config: built.config });
    call.then(
      (summary) => {
        setSubmit({ kind: 'editing' });
        onSaved(summary);
      },
      (error: unknown) => {
        const he = asHostError(error);
        const { fields, rest } = fieldErrorsFromHost(he);
        setErrors(fields);
        setSubmit({ kind: 'rejected', error: he, rest });
      },
    );
  };

  const hasMasked = values.env.includes(MASKED_VALUE) || values.headers.includes(MASKED_VALUE);
  const maskedHelp = hasMasked
    ? `${MASKED_VALUE} stands for a stored secret: leave it as is to keep it.`
    : undefined;
  const input = (field: FormField, props: { placeholder?: string; mono?: boolean } = {}) => ({
    id: `server-${field}`,
    'data-testid': `server-${kebab(field)}`,
    value: values[field],
    onChange: set(field),
    placeholder: props.placeholder,
    className: props.mono ? 'mono' : undefined,
    spellCheck: false,
  });
  const err = (field: FormField) => ({
    error: errors[field],
    errorTestId: `server-form-error-${kebab(field)}`,
  });

  return (
    <form className="panel server-form" onSubmit={onSubmit} noValidate data-testid="server-form">
      <h2>{existing ? `Edit ${existing.id}` : 'Add server'}</h2>
      <FormRow
        id="server-name"
        label="Name"
        help={existing ? 'The name is the server’s id and cannot change.' : undefined}
        {...err('name')}
      >
        <input {...input('name', { placeholder: 'e.g. filesystem' })} readOnly={!!existing} ref={nameInput} />
      </FormRow>
      <FormRow id="server-transport" label="Transport">
        <select
          id="server-transport"
          data-testid="server-transport"
          value={values.transport}
          onChange={(e) => setValues((v) => ({ ...v, transport: e.target.value as TransportChoice }))}
        >
          <option value="stdio">stdio (local command)</option>
          <option value="http">Streamable HTTP</option>
          <option value="sse">SSE (legacy)</option>
        </select>
      </FormRow>

      {values.transport === 'stdio' ? (
        <>
          <FormRow
            id="server-command"
            label="Command"
            help="An absolute path avoids PATH surprises."
            {...err('command')}
          >
            <input
              {...input('command', { placeholder: 'npx (or paste a whole command line)', mono: true })}
              ref={commandInput}
              onChange={(e) => {
                assist.onEdit();
                set('command')(e);
              }}
              onPaste={assist.onPaste}
              onBlur={assist.onBlur}
            />
            <CommandAssistNotice view={assist.view} />
          </FormRow>
          <FormRow
            id="server-args"
            label="Arguments"
            help="One per line, so an argument may contain spaces."
            {...err('args')}
          >
            <textarea
              rows={3}
              {...input('args', { placeholder: '-y\n@modelcontextprotocol/server-everything', mono: true })}
            />
          </FormRow>
          <FormRow
            id="server-env"
            label="Environment"
            help={
              maskedHelp ?? 'KEY=VALUE, one per line. ${env:X} and ${secret:NAME} are expanded by the host.'
            }
            {...err('env')}
          >
            <textarea rows={3} {...input('env', { placeholder: 'API_KEY=${secret:my-key}', mono: true })} />
            <SecretOffers field="env" values={values} setValues={setValues} />
          </FormRow>
          <FormRow id="server-cwd" label="Working directory" {...err('cwd')}>
            <input {...input('cwd', { placeholder: 'optional', mono: true })} />
          </FormRow>
          <div className="field">
            <label className="checkbox-line">
              <input
                type="checkbox"
                id="server-sandbox"
                data-testid="server-sandbox"
                checked={values.sandbox}
                onChange={(e) => setValues((v) => ({ ...v, sandbox: e.target.checked }))}
              />
              Run in an OS sandbox limited to the shared folders
            </label>
            <div className="field-help">
              The server then sees the shared folders (read-write), the system and its own program files
              (read-only), and nothing else of your files; it restarts when the shared folders change. Its
              network is not restricted. Linux (bubblewrap) and macOS only.
            </div>
          </div>
        </>
      ) : (
        <>
          <FormRow id="server-url" label="URL" {...err('url')}>
            <input {...input('url', { placeholder: 'https://example.com/mcp', mono: true })} type="url" />
          </FormRow>
          <FormRow
            id="server-headers"
            label="Headers"
            help={maskedHelp ?? 'Name: value, one per line.'}
            {...err('headers')}
          >
            <textarea
              rows={3}
              {...input('headers', { placeholder: 'Authorization: Bearer ${secret:token}', mono: true })}
            />
            <SecretOffers field="headers" values={values} setValues={setValues} />
          </FormRow>
          <OAuthFields values={values} input={input} err={err} />
        </>
      )}
      <SecretFields values={values} />

      <details className="advanced" open={!!(values.timeout || values.includeTools || values.excludeTools)}>
        <summary>Advanced</summary>
        <FormRow id="server-timeout" label="Request timeout (ms)" {...err('timeout')}>
          <input {...input('timeout', { placeholder: 'default' })} inputMode="numeric" />
        </FormRow>
        <FormRow
          id="server-includeTools"
          label="Only these tools"
          help="One per line; empty means all."
          {...err('includeTools')}
        >
          <textarea rows={2} {...input('includeTools', { mono: true })} />
        </FormRow>
        <FormRow
          id="server-excludeTools"
          label="Never these tools"
          help="One per line."
          {...err('excludeTools')}
        >
          <textarea rows={2} {...input('excludeTools', { mono: true })} />
        </FormRow>
      </details>

      {submit.kind === 'rejected' && submit.rest.length > 0 && (
        <ErrorBox
          error={{ code: submit.error.code, message: submit.rest.join('; ') }}
          testId="server-form-error"
        />
      )}
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={submit.kind === 'saving'}
          data-testid="server-form-submit"
        >
          {submit.kind === 'saving' ? 'Saving…' : existing ? 'Save' : 'Add server'}
        </button>
        <button type="button" onClick={onCancel} data-testid="server-form-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}

function kebab(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
