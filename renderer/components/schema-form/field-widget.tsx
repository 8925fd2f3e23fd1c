import type { Draft } from './schema-draft.js';
import type { FieldNode } from './schema-model.js';

interface WidgetProps {
  id: string;
  testId: string;
  node: FieldNode;
  draft: Draft;
  disabled: boolean;
  onChange: (next: Draft) => void;
}

/** Input types the browser can help with without changing the value's wire format. */
const INPUT_TYPE_BY_FORMAT: Record<string, string> = { email: 'email', uri: 'url', url: 'url', date: 'date' };

/** The input for one leaf field, chosen by its spec kind. */
export function FieldWidget({ id, testId, node, draft, disabled, onChange }: WidgetProps) {
  const spec = node.spec;
  if (draft.kind === 'bool') {
    return (
      <span className="checkbox-line">
        <input
          id={id}
          data-testid={testId}
          type="checkbox"
          checked={draft.value}
          disabled={disabled}
          onChange={(e) => onChange({ kind: 'bool', value: e.target.checked, touched: true })}
        />
        {!draft.touched && !node.required && <span className="muted">not set</span>}
      </span>
    );
  }
  if (draft.kind !== 'text') return null;
  const setText = (text: string) => onChange({ kind: 'text', text });

  switch (spec.kind) {
    case 'string':
      if (spec.options) {
        return (
          <select
            id={id}
            data-testid={testId}
            value={draft.text}
            disabled={disabled}
            onChange={(e) => setText(e.target.value)}
          >
            <option value="">— choose —</option>
            {spec.options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        );
      }
      if (spec.multiline) {
        return (
          <textarea
            id={id}
            data-testid={testId}
            rows={4}
            value={draft.text}
            disabled={disabled}
            onChange={(e) => setText(e.target.value)}
          />
        );
      }
      return (
        <input
          id={id}
          data-testid={testId}
          type={(spec.format && INPUT_TYPE_BY_FORMAT[spec.format]) || 'text'}
          value={draft.text}
          disabled={disabled}
          placeholder={spec.format ? `format: ${spec.format}` : undefined}
          maxLength={spec.maxLength}
          onChange={(e) => setText(e.target.value)}
        />
      );
    case 'number':
      return (
        <input
          id={id}
          data-testid={testId}
          type="number"
          value={draft.text}
          disabled={disabled}
          min={spec.minimum}
          max={spec.maximum}
          step={spec.integer ? 1 : 'any'}
          placeholder={rangeHint(spec.minimum, spec.maximum, spec.integer)}
          onChange={(e) => setText(e.target.value)}
        />
      );
    case 'choice':
      return (
        <select
          id={id}
          data-testid={testId}
          value={draft.text}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
        >
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
          id={id}
          data-testid={testId}
          rows={3}
          value={draft.text}
          disabled={disabled}
          placeholder={`one ${spec.item} per line`}
          onChange={(e) => setText(e.target.value)}
        />
      );
    case 'json':
    case 'boolean':
    case 'object':
      return (
        <textarea
          id={id}
          data-testid={testId}
          className="mono"
          rows={4}
          value={draft.text}
          disabled={disabled}
          placeholder="JSON value"
          spellCheck={false}
          onChange={(e) => setText(e.target.value)}
        />
      );
  }
}

function rangeHint(min: number | undefined, max: number | undefined, integer: boolean): string | undefined {
  const kind = integer ? 'whole number' : 'number';
  if (min !== undefined && max !== undefined) return `${kind}, ${min}–${max}`;
  if (min !== undefined) return `${kind} ≥ ${min}`;
  if (max !== undefined) return `${kind} ≤ ${max}`;
  return undefined;
}
