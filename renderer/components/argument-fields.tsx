import { useState } from 'react';
import { useCompletion, type CompletionRef } from '../hooks/use-completion.js';

/** One string argument of a prompt or resource template. */
export interface ArgumentSpec {
  name: string;
  label: string;
  description?: string;
  required: boolean;
}

/**
 * String inputs for prompt arguments or template variables, with the server's completion
 * suggestions under whichever field has focus.
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
  const set = (name: string, value: string) => onChange({ ...values, [name]: value });

  if (!fields.length) return <p className="muted">No arguments.</p>;
  return (
    <div className="argument-fields">
      {fields.map((f) => {
        const id = `${idPrefix}-${f.name}`;
        const showSuggestions = activeName === f.name && suggestions.length > 0;
        return (
          <div key={f.name} className="field">
            <label htmlFor={id}>
              {f.label}
              {f.required && (
                <span className="required" title="required">
                  *
                </span>
              )}
            </label>
            <div className="completing">
              <input
                id={id}
                data-testid={`${idPrefix}-${f.name}`}
                value={values[f.name] ?? ''}
                disabled={disabled}
                autoComplete="off"
                onFocus={() => setActiveName(f.name)}
                onBlur={() => setActiveName((n) => (n === f.name ? null : n))}
                onChange={(e) => set(f.name, e.target.value)}
              />
              {showSuggestions && (
                // Floats over the content below, so nothing moves under the pointer when it closes.
                <ul className="suggestions" role="listbox" data-testid={`${idPrefix}-${f.name}-suggestions`}>
                  {suggestions.map((s) => (
                    <li key={s}>
                      <button
                        type="button"
                        className="suggestion"
                        // mousedown, not click: the input's blur would otherwise hide the list first.
                        onMouseDown={(e) => {
                          e.preventDefault();
                          set(f.name, s);
                        }}
                        data-testid="completion-suggestion"
                      >
                        {s}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
            {f.description && <div className="field-help">{f.description}</div>}
          </div>
        );
      })}
    </div>
  );
}
