import type { FocusEventHandler, KeyboardEventHandler } from 'react';
import type { Draft } from './schema-draft.js';
import type { FieldNode } from './schema-model.js';
import { rangeHint } from './field-hints.js';

/** What every input of a field carries, whatever its kind (built by the field's row). */
export interface InputBase {
  id: string;
  'data-testid': string;
  disabled: boolean;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
  autoComplete?: 'off';
  onFocus?: FocusEventHandler;
  onBlur?: FocusEventHandler;
  /** Set on a text input with completion suggestions: it is a combobox over their listbox. */
  role?: 'combobox';
  'aria-autocomplete'?: 'list';
  'aria-expanded'?: boolean;
  'aria-controls'?: string;
  'aria-activedescendant'?: string;
  onKeyDown?: KeyboardEventHandler;
}

interface WidgetProps {
  base: InputBase;
  node: FieldNode;
  draft: Draft;
  /** The elicitation mode: limits live in the help line, and the browser is told what is required. */
  strict: boolean;
  onChange: (next: Draft) => void;
}

/** Input types the browser can help with without changing the value's wire format. */
const INPUT_TYPE_BY_FORMAT: Record<string, string> = { email: 'email', uri: 'url', url: 'url', date: 'date' };

/** The input for one leaf field, chosen by its spec kind (checkbox groups are drawn by the row). */
export function FieldWidget({ base, node, draft, strict, onChange }: WidgetProps) {
  const spec = node.spec;
  if (draft.kind === 'bool') {
    return (
      <span className="checkbox-line">
        <input
          {...base}
          type="checkbox"
          checked={draft.value}
          onChange={(e) => onChange({ kind: 'bool', value: e.target.checked, touched: true })}
        />
        {!draft.touched && !node.required && (
          <span className="muted">{strict ? 'not answered' : 'not set'}</span>
        )}
      </span>
    );
  }
  if (draft.kind !== 'text') return null;
  const setText = (text: string) => onChange({ kind: 'text', text });

  switch (spec.kind) {
    case 'string':
      if (spec.options) {
        return (
          <select {...base} value={draft.text} onChange={(e) => setText(e.target.value)}>
            {spec.blankOption && <option value="">— choose —</option>}
            {spec.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        );
      }
      if (spec.multiline) {
        return <textarea {...base} rows={4} value={draft.text} onChange={(e) => setText(e.target.value)} />;
      }
      return (
        <input
          {...base}
          type={
            spec.localTime ? 'datetime-local' : (spec.format && INPUT_TYPE_BY_FORMAT[spec.format]) || 'text'
          }
          value={draft.text}
          placeholder={!strict && spec.format ? `format: ${spec.format}` : undefined}
          maxLength={strict ? undefined : spec.maxLength}
          required={strict ? node.required : undefined}
          onChange={(e) => setText(e.target.value)}
        />
      );
    case 'number':
      return (
        <input
          {...base}
          type="number"
          inputMode={strict ? (spec.integer ? 'numeric' : 'decimal') : undefined}
          value={draft.text}
          min={spec.minimum}
          max={spec.maximum}
          step={spec.integer ? 1 : 'any'}
          placeholder={strict ? undefined : rangeHint(spec.minimum, spec.maximum, spec.integer)}
          onChange={(e) => setText(e.target.value)}
        />
      );
    case 'choice':
      return (
        <select {...base} value={draft.text} onChange={(e) => setText(e.target.value)}>
          <option value="">— choose —</option>
          {spec.options.map((o, i) => (
            <option key={i} value={String(i)}>
              {JSON.stringify(o)}
            </option>
          ))}
        </select>
      );
    case 'list':
      return (
        <textarea
          {...base}
          rows={3}
          value={draft.text}
          placeholder={`one ${spec.item} per line`}
          onChange={(e) => setText(e.target.value)}
        />
      );
    case 'json':
    case 'boolean':
    case 'object':
    case 'multi':
      return (
        <textarea
          {...base}
          className="mono"
          rows={4}
          value={draft.text}
          placeholder="JSON value"
          spellCheck={false}
          onChange={(e) => setText(e.target.value)}
        />
      );
  }
}
