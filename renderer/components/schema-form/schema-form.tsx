import type { Draft, FieldError } from './schema-draft.js';
import { setDraftAt } from './schema-draft.js';
import type { FieldNode } from './schema-model.js';
import { FieldWidget } from './field-widget.js';

/** Props shared by every level of the form. */
interface LevelProps {
  errors: ReadonlyMap<string, string>;
  disabled: boolean;
  onChange: (names: string[], next: Draft) => void;
  idPrefix: string;
}

/** A form generated from a tool's inputSchema (see schema-model.ts for what maps to what). */
export function SchemaForm({
  root,
  draft,
  errors,
  disabled = false,
  onChange,
  idPrefix = 'arg',
}: {
  root: FieldNode;
  draft: Draft;
  errors: FieldError[];
  disabled?: boolean;
  onChange: (next: Draft) => void;
  idPrefix?: string;
}) {
  if (root.spec.kind !== 'object' || draft.kind !== 'object') return null;
  if (!root.spec.properties.length) return <p className="muted">This takes no arguments.</p>;
  const byPath = new Map(errors.map((e) => [e.path, e.message]));
  const level: LevelProps = {
    errors: byPath,
    disabled,
    idPrefix,
    onChange: (names, next) => onChange(setDraftAt(draft, names, next)),
  };
  return (
    <div className="schema-form">
      {root.spec.properties.map((p) => (
        <FieldRow key={p.name} node={p} draft={draft.fields[p.name]} names={[p.name]} level={level} />
      ))}
    </div>
  );
}

function FieldRow({
  node,
  draft,
  names,
  level,
}: {
  node: FieldNode;
  draft: Draft | undefined;
  names: string[];
  level: LevelProps;
}) {
  const path = names.join('.');
  const id = `${level.idPrefix}-${path}`;
  const error = level.errors.get(path);
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

  if (node.spec.kind === 'object' && draft?.kind === 'object') {
    return (
      <fieldset className="field-group" data-testid={`fieldset-${path}`}>
        <legend>{label}</legend>
        {node.description && <div className="field-help">{node.description}</div>}
        {node.spec.properties.map((p) => (
          <FieldRow
            key={p.name}
            node={p}
            draft={draft.fields[p.name]}
            names={[...names, p.name]}
            level={level}
          />
        ))}
        {error && <div className="field-error">{error}</div>}
      </fieldset>
    );
  }

  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {draft && (
        <FieldWidget
          id={id}
          testId={`field-${path}`}
          node={node}
          draft={draft}
          disabled={level.disabled}
          onChange={(next) => level.onChange(names, next)}
        />
      )}
      {node.description && <div className="field-help">{node.description}</div>}
      {error && (
        <div className="field-error" data-testid={`field-error-${path}`}>
          {error}
        </div>
      )}
    </div>
  );
}
