import type { ReactNode } from 'react';
import { constraintHint } from './field-hints.js';
import { FieldWidget, type InputBase } from './field-widget.js';
import type { FormMode } from './form-mode.js';
import { fieldDraft, type Draft } from './schema-draft.js';
import type { FieldNode } from './schema-model.js';

/** Props shared by every level of the form. */
export interface LevelProps {
  errors: ReadonlyMap<string, string>;
  disabled: boolean;
  onChange: (names: string[], next: Draft) => void;
  mode: FormMode;
}

interface RowProps {
  node: FieldNode;
  draft: Draft | undefined;
  names: string[];
  /** The field's place among its siblings. */
  index: number;
  level: LevelProps;
}

/** One field: its label (and required marker), input, help text and inline error. */
export function FieldRow({ node, draft, names, index, level }: RowProps) {
  const { mode } = level;
  const strict = mode.kind === 'elicitation';
  const path = names.join('.');
  const id = mode.id(path, index);
  const error = level.errors.get(path);
  // Only the elicitation mode ties an error to its input for screen readers.
  const errorId = strict && error ? `${id}-error` : undefined;
  const label = (
    <>
      {node.title ?? node.name}
      {node.required && (
        <span className="required" title="required">
          *
        </span>
      )}
    </>
  );
  const help = strict
    ? [node.description, constraintHint(node.spec)].filter(Boolean).join(' · ')
    : node.description;
  const helpLine = help && <div className="field-help">{help}</div>;
  const errorLine = error && (
    <div className="field-error" id={errorId} data-testid={mode.errorTestId(path)}>
      {error}
    </div>
  );

  if (node.spec.kind === 'object' && draft?.kind === 'object') {
    return (
      <fieldset className="field-group" data-testid={`fieldset-${path}`}>
        <legend>{label}</legend>
        {node.description && <div className="field-help">{node.description}</div>}
        {node.spec.properties.map((p, i) => (
          <FieldRow
            key={p.name}
            node={p}
            draft={fieldDraft(draft, p.name)}
            names={[...names, p.name]}
            index={i}
            level={level}
          />
        ))}
        {error && <div className="field-error">{error}</div>}
      </fieldset>
    );
  }

  if (node.spec.kind === 'multi' && draft?.kind === 'multi') {
    const values = draft.values;
    const toggle = (value: string, on: boolean) =>
      level.onChange(names, {
        kind: 'multi',
        values: on ? [...values, value] : values.filter((v) => v !== value),
      });
    return (
      <fieldset
        className={`field-group elicit-multi${error ? ' has-error' : ''}`}
        data-testid={mode.testId(path)}
        aria-describedby={errorId}
      >
        <legend>{label}</legend>
        {node.spec.options.map((o, i) => (
          <label key={o.value} className="checkbox-line">
            <input
              type="checkbox"
              checked={values.includes(o.value)}
              disabled={level.disabled}
              onChange={(e) => toggle(o.value, e.target.checked)}
              data-testid={mode.optionTestId(path, i)}
            />
            {o.label}
          </label>
        ))}
        {helpLine}
        {errorLine}
      </fieldset>
    );
  }

  const { completion } = mode;
  const base: InputBase = {
    id,
    'data-testid': mode.testId(path),
    disabled: level.disabled,
    ...(errorId ? { 'aria-invalid': true, 'aria-describedby': errorId } : {}),
    ...(completion
      ? {
          autoComplete: 'off',
          onFocus: () => completion.onFocus(path),
          onBlur: () => completion.onBlur(path),
          ...completion.inputProps(path),
        }
      : {}),
  };
  const widget: ReactNode = draft && (
    <FieldWidget
      base={base}
      node={node}
      draft={draft}
      strict={strict}
      onChange={(next) => level.onChange(names, next)}
    />
  );
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {completion ? (
        <div className="completing">
          {widget}
          {completion.suggestions(path)}
        </div>
      ) : (
        widget
      )}
      {helpLine}
      {errorLine}
    </div>
  );
}
