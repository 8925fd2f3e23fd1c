import { useMemo, useState } from 'react';
import type { JsonSchema } from '../../../shared/domain/mcp-types.js';
import { draftOf, valueOf, type Draft, type FieldError } from './schema-draft.js';
import { rootFieldOf, type FieldNode } from './schema-model.js';

/** Form fields, or the arguments as JSON text, never both at once. */
export type ArgsMode = { kind: 'form'; draft: Draft } | { kind: 'raw'; text: string };

/** Arguments ready to send, or why they are not. */
export type CollectResult = { ok: true; args: Record<string, unknown> } | { ok: false; errors: FieldError[] };

/** Editing state for one tool's arguments (reset by remounting with a new `key`). */
export interface ArgsEditor {
  root: FieldNode;
  mode: ArgsMode;
  errors: FieldError[];
  setDraft: (draft: Draft) => void;
  setRawText: (text: string) => void;
  /** Switch between form and raw JSON, carrying the current values across. */
  toggleRaw: () => void;
  /** Validate and build the arguments, showing any errors. */
  collect: () => CollectResult;
}

function parseRaw(text: string): CollectResult {
  if (text.trim() === '') return { ok: true, args: {} };
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return { ok: false, errors: [{ path: '(arguments)', message: 'arguments must be a JSON object' }] };
    }
    return { ok: true, args: parsed as Record<string, unknown> };
  } catch (error) {
    return {
      ok: false,
      errors: [
        {
          path: '(arguments)',
          message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        },
      ],
    };
  }
}

/** State for the arguments of a tool with `schema` as its inputSchema. */
export function useArgsEditor(schema: JsonSchema): ArgsEditor {
  const root = useMemo(() => rootFieldOf(schema), [schema]);
  const [mode, setMode] = useState<ArgsMode>(() => ({ kind: 'form', draft: draftOf(root, undefined) }));
  const [errors, setErrors] = useState<FieldError[]>([]);

  const collect = (): CollectResult => {
    let result: CollectResult;
    if (mode.kind === 'raw') {
      result = parseRaw(mode.text);
    } else {
      const r = valueOf(root, mode.draft);
      result = r.ok ? { ok: true, args: (r.value ?? {}) as Record<string, unknown> } : r;
    }
    setErrors(result.ok ? [] : result.errors);
    return result;
  };

  const toggleRaw = () => {
    if (mode.kind === 'form') {
      // Lenient: a half-typed field should not block looking at the JSON.
      const r = valueOf(root, mode.draft, '', true);
      setMode({ kind: 'raw', text: JSON.stringify(r.ok ? (r.value ?? {}) : {}, null, 2) });
      setErrors([]);
      return;
    }
    const parsed = parseRaw(mode.text);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setMode({ kind: 'form', draft: draftOf(root, parsed.args) });
    setErrors([]);
  };

  return {
    root,
    mode,
    errors,
    setDraft: (draft) => setMode({ kind: 'form', draft }),
    setRawText: (text) => setMode({ kind: 'raw', text }),
    toggleRaw,
    collect,
  };
}
