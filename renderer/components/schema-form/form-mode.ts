import type { ReactNode } from 'react';
import type { InputBase } from './field-widget.js';

/**
 * Which of the engine's three uses a form serves, and how its fields are named. Each use
 * keeps the look its people and tests know: tool arguments ('schema') show limits as
 * placeholders; an elicitation ('elicitation', the stricter subset) shows them in the help
 * line, marks inputs required and ties errors to inputs for screen readers; prompt
 * arguments ('arguments') are text fields with the server's completion suggestions.
 */
export interface FormMode {
  kind: 'schema' | 'elicitation' | 'arguments';
  /** The element id of the field at `path`; `index` is its place among its siblings. */
  id: (path: string, index: number) => string;
  testId: (path: string) => string;
  errorTestId: (path: string) => string;
  optionTestId: (path: string, index: number) => string;
  /** The wrapper's class and the words shown when there are no fields; null: rows only. */
  frame: { className: string; empty: string } | null;
  /** Focus tracking and a suggestion list under each text input. */
  completion?: Completion;
}

/** What prompt arguments hang on a text input for the server's completion suggestions. */
export interface Completion {
  onFocus: (path: string) => void;
  onBlur: (path: string) => void;
  suggestions: (path: string) => ReactNode;
  /** The combobox attributes and keys (arrows, Enter, Escape) for the input at `path`. */
  inputProps: (path: string) => Partial<InputBase>;
}

/** Tool arguments: ids `${idPrefix}-${path}`, test ids `field-${path}`. */
export function schemaMode(idPrefix = 'arg'): FormMode {
  return {
    kind: 'schema',
    id: (path) => `${idPrefix}-${path}`,
    testId: (path) => `field-${path}`,
    errorTestId: (path) => `field-error-${path}`,
    optionTestId: (path, i) => `field-${path}-${i}`,
    frame: { className: 'schema-form', empty: 'This takes no arguments.' },
  };
}

/** An elicitation form: ids by position (names are the server's), test ids `elicit-*-${name}`. */
export function elicitationMode(idPrefix: string): FormMode {
  return {
    kind: 'elicitation',
    id: (_path, i) => `${idPrefix}-${i}`,
    testId: (path) => `elicit-field-${path}`,
    errorTestId: (path) => `elicit-error-${path}`,
    optionTestId: (path, i) => `elicit-option-${path}-${i}`,
    frame: null,
  };
}

/** Prompt arguments or template variables: ids and test ids `${idPrefix}-${name}`. */
export function argumentsMode(idPrefix: string, completion: Completion): FormMode {
  return {
    kind: 'arguments',
    id: (path) => `${idPrefix}-${path}`,
    testId: (path) => `${idPrefix}-${path}`,
    errorTestId: (path) => `${idPrefix}-${path}-error`,
    optionTestId: (path, i) => `${idPrefix}-${path}-${i}`,
    frame: { className: 'argument-fields', empty: 'No arguments.' },
    completion,
  };
}
