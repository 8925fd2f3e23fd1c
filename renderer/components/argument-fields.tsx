import { useState, type KeyboardEvent } from 'react';
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
  // The highlighted option belongs to one field and one typed text: typing more (or another
  // field) starts unhighlighted, but a list that refreshes for the same text (a late answer
  // replacing an earlier one) keeps the option the person moved to, wherever it now sits.
  const [highlight, setHighlight] = useState<{ field: string; text: string; option: string } | null>(null);
  const index =
    highlight && highlight.field === activeName && highlight.text === (values[highlight.field] ?? '')
      ? suggestions.indexOf(highlight.option)
      : -1;
  // Escape (or a pick) closes the list until the text changes again.
  const [closedFor, setClosedFor] = useState<string | null>(null);
  const open = (name: string) =>
    activeName === name && suggestions.length > 0 && closedFor !== JSON.stringify([name, values[name] ?? '']);
  // Only the edited argument changes: the others keep whatever the caller holds (or nothing).
  const set = (name: string, value: string) => onChange({ ...values, [name]: value });
  const pick = (name: string, value: string) => {
    set(name, value);
    setClosedFor(JSON.stringify([name, value]));
  };
  const listId = (name: string) => `${idPrefix}-${name}-suggestions`;
  const optionId = (name: string, i: number) => `${idPrefix}-${name}-option-${i}`;

  const onKeyDown = (name: string, e: KeyboardEvent) => {
    const shown = open(name);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (suggestions.length === 0 || activeName !== name) return;
      e.preventDefault();
      setClosedFor(null);
      const last = suggestions.length - 1;
      const next = !shown
        ? e.key === 'ArrowDown'
          ? 0
          : last
        : e.key === 'ArrowDown'
          ? Math.min(index + 1, last)
          : Math.max(index - 1, 0);
      setHighlight({ field: name, text: values[name] ?? '', option: suggestions[next] });
    } else if (e.key === 'Enter' && shown && index >= 0) {
      // The highlighted option is the answer; the form is not submitted with the half-typed text.
      e.preventDefault();
      pick(name, suggestions[index]);
    } else if (e.key === 'Escape' && shown) {
      // Closes the list only: a drawer or card around the form stays open.
      e.preventDefault();
      e.stopPropagation();
      e.nativeEvent.stopImmediatePropagation();
      setClosedFor(JSON.stringify([name, values[name] ?? '']));
    }
  };

  const mode = argumentsMode(idPrefix, {
    onFocus: (name) => setActiveName(name),
    onBlur: (name) => setActiveName((n) => (n === name ? null : n)),
    inputProps: (name) => ({
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': open(name),
      'aria-controls': listId(name),
      ...(open(name) && index >= 0 ? { 'aria-activedescendant': optionId(name, index) } : {}),
      onKeyDown: (e) => onKeyDown(name, e),
    }),
    suggestions: (name) =>
      open(name) && (
        // Floats over the content below, so nothing moves under the pointer when it closes.
        <ul
          className="suggestions"
          role="listbox"
          id={listId(name)}
          aria-label={`Suggestions for ${name}`}
          data-testid={listId(name)}
        >
          {suggestions.map((s, i) => (
            // Options are not focusable: focus stays in the input, aria-activedescendant points here.
            <li
              key={s}
              id={optionId(name, i)}
              role="option"
              aria-selected={i === index}
              className={i === index ? 'suggestion active' : 'suggestion'}
              // mousedown, not click: the input's blur would otherwise hide the list first.
              onMouseDown={(e) => {
                e.preventDefault();
                pick(name, s);
              }}
              data-testid="completion-suggestion"
            >
              {s}
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
