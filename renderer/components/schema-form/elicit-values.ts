import { fieldDraft, put, type Draft } from './schema-draft.js';
import type { FieldNode } from './schema-model.js';

/** The content to send, and the fields whose text could not even be read as their type. */
export interface BuiltContent {
  content: Record<string, unknown>;
  unreadable: Map<string, string>;
}

/**
 * The elicitation mode's reading of a draft (see elicitRootOf): values only, since the
 * stricter checks and their messages belong to shared/elicitation's validateElicitContent.
 * An empty optional field is left out (the server's default applies), except where leaving
 * it out would bring back a default the person removed.
 */
export function elicitContentOf(root: FieldNode, draft: Draft): BuiltContent {
  const content: Record<string, unknown> = {};
  const unreadable = new Map<string, string>();
  if (root.spec.kind !== 'object' || draft.kind !== 'object') return { content, unreadable };
  for (const node of root.spec.properties) {
    const { name, spec } = node;
    const d = fieldDraft(draft, name);
    if (!d) continue;
    switch (d.kind) {
      case 'text': {
        if (spec.kind === 'number') {
          const t = d.text.trim();
          if (t === '') break;
          const n = Number(t);
          if (!Number.isFinite(n)) unreadable.set(name, 'must be a number');
          else put(content, name, n);
          break;
        }
        if (spec.kind !== 'string') break;
        if (d.text === '') {
          if (!spec.options && node.defaultValue !== undefined) put(content, name, '');
          break;
        }
        if (spec.localTime) {
          const at = new Date(d.text);
          if (Number.isNaN(at.getTime())) unreadable.set(name, 'must be a date and time');
          else put(content, name, at.toISOString());
        } else put(content, name, d.text);
        break;
      }
      case 'bool':
        if (d.touched || node.required) put(content, name, d.value);
        break;
      case 'multi':
        if (d.values.length > 0 || node.required || node.defaultValue !== undefined)
          put(content, name, d.values);
        break;
      case 'object':
        break;
    }
  }
  return { content, unreadable };
}
