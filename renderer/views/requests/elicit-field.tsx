import type { ElicitField, StringFormat } from '../../../shared/elicitation/elicitation-schema.js';
import type { FieldDraft } from './elicit-draft.js';

const INPUT_TYPE: Record<StringFormat, string> = {
  email: 'email',
  uri: 'url',
  date: 'date',
  'date-time': 'datetime-local',
};

interface FieldProps {
  id: string;
  field: ElicitField;
  draft: FieldDraft;
  error: string | undefined;
  disabled: boolean;
  onChange: (next: FieldDraft) => void;
}

/** One elicitation field: its label (and required marker), input, help text and inline error. */
export function ElicitFieldRow({ id, field, draft, error, disabled, onChange }: FieldProps) {
  const label = (
    <>
      {field.title ?? field.name}
      {field.required && (
        <span className="required" title="required">
          *
        </span>
      )}
    </>
  );
  const help = [field.description, constraintHint(field)].filter(Boolean).join(' · ');
  const errorLine = error && (
    <div className="field-error" id={`${id}-error`} data-testid={`elicit-error-${field.name}`}>
      {error}
    </div>
  );
  if (field.kind === 'multi-enum' && draft.kind === 'multi') {
    const toggle = (value: string, on: boolean) =>
      onChange({
        kind: 'multi',
        values: on ? [...draft.values, value] : draft.values.filter((v) => v !== value),
      });
    return (
      <fieldset
        className={`field-group elicit-multi${error ? ' has-error' : ''}`}
        data-testid={`elicit-field-${field.name}`}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <legend>{label}</legend>
        {field.options.map((o, i) => (
          <label key={o.value} className="checkbox-line">
            <input
              type="checkbox"
              checked={draft.values.includes(o.value)}
              disabled={disabled}
              onChange={(e) => toggle(o.value, e.target.checked)}
              data-testid={`elicit-option-${field.name}-${i}`}
            />
            {o.label}
          </label>
        ))}
        {help && <div className="field-help">{help}</div>}
        {errorLine}
      </fieldset>
    );
  }
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <FieldInput id={id} field={field} draft={draft} error={error} disabled={disabled} onChange={onChange} />
      {help && <div className="field-help">{help}</div>}
      {errorLine}
    </div>
  );
}

function FieldInput({ id, field, draft, error, disabled, onChange }: FieldProps) {
  const common = {
    id,
    disabled,
    'data-testid': `elicit-field-${field.name}`,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  };
  switch (field.kind) {
    case 'string':
      if (draft.kind !== 'text') return null;
      return (
        <input
          {...common}
          type={field.format ? INPUT_TYPE[field.format] : 'text'}
          value={draft.text}
          required={field.required}
          onChange={(e) => onChange({ kind: 'text', text: e.target.value })}
        />
      );
    case 'enum':
      if (draft.kind !== 'text') return null;
      return (
        <select
          {...common}
          value={draft.text}
          onChange={(e) => onChange({ kind: 'text', text: e.target.value })}
        >
          {/* Without a default nothing is chosen until the person chooses. */}
          {(field.default === undefined || !field.required) && <option value="">— choose —</option>}
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    case 'number':
      if (draft.kind !== 'number') return null;
      return (
        <input
          {...common}
          type="number"
          inputMode={field.integer ? 'numeric' : 'decimal'}
          step={field.integer ? 1 : 'any'}
          min={field.minimum}
          max={field.maximum}
          value={draft.text}
          onChange={(e) => onChange({ kind: 'number', text: e.target.value })}
        />
      );
    case 'boolean':
      if (draft.kind !== 'boolean') return null;
      return (
        <span className="checkbox-line">
          <input
            {...common}
            type="checkbox"
            checked={draft.value}
            onChange={(e) => onChange({ kind: 'boolean', value: e.target.checked, set: true })}
          />
          {!draft.set && !field.required && <span className="muted">not answered</span>}
        </span>
      );
    case 'multi-enum':
      // Rendered as a checkbox group by ElicitFieldRow.
      return null;
  }
}

/** The limits a person should know before typing ("3–20 characters", "1–100, whole number"). */
function constraintHint(field: ElicitField): string {
  switch (field.kind) {
    case 'string': {
      const { minLength: lo, maxLength: hi } = field;
      if (lo !== undefined && hi !== undefined) return `${lo}–${hi} characters`;
      if (lo !== undefined) return `at least ${lo} characters`;
      if (hi !== undefined) return `at most ${hi} characters`;
      return '';
    }
    case 'number': {
      const kind = field.integer ? 'whole number' : 'number';
      if (field.minimum !== undefined && field.maximum !== undefined)
        return `${kind}, ${field.minimum}–${field.maximum}`;
      if (field.minimum !== undefined) return `${kind} ≥ ${field.minimum}`;
      if (field.maximum !== undefined) return `${kind} ≤ ${field.maximum}`;
      return field.integer ? kind : '';
    }
    case 'multi-enum': {
      const { minItems: lo, maxItems: hi } = field;
      if (lo !== undefined && hi !== undefined) return `choose ${lo}–${hi}`;
      if (lo !== undefined) return `choose at least ${lo}`;
      if (hi !== undefined) return `choose at most ${hi}`;
      return '';
    }
    case 'boolean':
    case 'enum':
      return '';
  }
}
