import { FieldRow, type LevelProps } from './field-row.js';
import { schemaMode, type FormMode } from './form-mode.js';
import { fieldDraft, setDraftAt, type Draft, type FieldError } from './schema-draft.js';
import type { FieldNode } from './schema-model.js';

const TOOL_ARGUMENTS = schemaMode();

/**
 * The one schema-to-form engine: a form generated from a field model (a tool's inputSchema,
 * prompt arguments, or an elicitation's requestedSchema; see schema-model.ts and
 * field-sources.ts), drawn as `mode` says. `onChange` also names the field that changed.
 */
export function SchemaForm({
  root,
  draft,
  errors,
  disabled = false,
  onChange,
  mode = TOOL_ARGUMENTS,
}: {
  root: FieldNode;
  draft: Draft;
  errors: FieldError[];
  disabled?: boolean;
  onChange: (next: Draft, changed: string) => void;
  mode?: FormMode;
}) {
  if (root.spec.kind !== 'object' || draft.kind !== 'object') return null;
  const { frame } = mode;
  if (!root.spec.properties.length) return frame && <p className="muted">{frame.empty}</p>;
  const level: LevelProps = {
    errors: new Map(errors.map((e) => [e.path, e.message])),
    disabled,
    mode,
    onChange: (names, next) => onChange(setDraftAt(draft, names, next), names.join('.')),
  };
  const rows = root.spec.properties.map((p, i) => (
    <FieldRow
      key={p.name}
      node={p}
      draft={fieldDraft(draft, p.name)}
      names={[p.name]}
      index={i}
      level={level}
    />
  ));
  return frame ? <div className={frame.className}>{rows}</div> : <>{rows}</>;
}
