import { useState } from 'react';
import { useCompletion, type CompletionRef } from '../hooks/use-completion.js';
import { argumentsRootOf, type ArgumentSpec } from './schema-form/field-sources.js';
import { argumentsMode } from './schema-form/form-mode.js';
import { fieldDraft, put, type Draft } from './schema-form/schema-draft.js';
import { SchemaForm } from './schema-form/schema-form.js';

export type { ArgumentSpec } from './schema-form/field-sources.js';

const NO_ERRORS: never[] = [];

/** The texts as the form engine's draft (one text field per argument). */
function draftOfValues(fields: ArgumentSpec[], values: Record<string, string>): Draft {
  const drafts: Record<string, Draft> = {};
  for (const f of fields) {
    const text = Object.prototype.hasOwnProperty.call(values, f.name) ? values[f.name] : '';
    put(drafts, f.name, { kind: 'text', text });
  }
  return { kind: 'object', fields: drafts, extra: {} };
}

/**
 * String inputs for prompt arguments or template variables (drawn by the schema-form engine),
 * with the server's completion suggestions under whichever field has focus.
 */
export function ArgumentFields({
  idPrefix,
  fields,
  values,
  onChange,
  serverId,
  completionRef,
  completionEnabled,
  disabled = false,
}: {
  idPrefix: string;
  fields: ArgumentSpec[];
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
  serverId: string;
  completionRef: CompletionRef;
  completionEnabled: boolean;
  disabled?: boolean;
}) {
  const [activeName, setActiveName] = useState<string | null>(null);
  const active = activeName === null ? null : { name: activeName, value: values[activeName] ?? '' };
  const suggestions = useCompletion(serverId, completionRef, active, values, completionEnabled);
  // Only the edited argument changes: the others keep whatever the caller holds (or nothing).
  const set = (name: string, value: string) => onChange({ ...values, [name]: value });

  const mode = argumentsMode(idPrefix, {
    onFocus: (name) => setActiveName(name),
    onBlur: (name) => setActiveName((n) => (n === name ? null : n)),
    suggestions: (name) =>
      activeName === name &&
      suggestions.length > 0 && (
        // Floats over the content below, so nothing moves under the pointer when it closes.
        <ul className="suggestions" role="listbox" data-testid={`${idPrefix}-${name}-suggestions`}>
          {suggestions.map((s) => (
            <li key={s}>
              <button
                type="button"
                className="suggestion"
                // mousedown, not click: the input's blur would otherwise hide the list first.
                onMouseDown={(e) => {
                  e.preventDefault();
                  set(name, s);
                }}
                data-testid="completion-suggestion"
              >
                {s}
              </button>
            </li>
          ))}
        </ul>
      ),
  });

  return (
    <SchemaForm
      root={argumentsRootOf(fields)}
      draft={draftOfValues(fields, values)}
      errors={NO_ERRORS}
      disabled={disabled}
      mode={mode}
      onChange={(next, name) => {
        const changed = next.kind === 'object' ? fieldDraft(next, name) : undefined;
        if (changed?.kind === 'text') set(name, changed.text);
      }}
    />
  );
}
