import { fieldDefaults, type ElicitField } from '../../../shared/elicitation/elicitation-schema.js';

/** What the person has typed or picked for one field, before it becomes a value. */
export type FieldDraft =
  | { kind: 'text'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'boolean'; value: boolean; set: boolean }
  | { kind: 'multi'; values: string[] };

/** Drafts by field name (a Map: a field may be called "__proto__"). */
export type Drafts = ReadonlyMap<string, FieldDraft>;

/** The form as first shown: every default filled in, everything else empty. */
export function initialDrafts(fields: ElicitField[]): Drafts {
  const defaults = new Map(Object.entries(fieldDefaults(fields)));
  const out = new Map<string, FieldDraft>();
  for (const f of fields) {
    const d = defaults.get(f.name);
    switch (f.kind) {
      case 'string':
        out.set(f.name, {
          kind: 'text',
          text: typeof d === 'string' ? (f.format === 'date-time' ? toLocalInput(d) : d) : '',
        });
        break;
      case 'enum':
        out.set(f.name, { kind: 'text', text: typeof d === 'string' ? d : '' });
        break;
      case 'number':
        out.set(f.name, { kind: 'number', text: typeof d === 'number' ? String(d) : '' });
        break;
      case 'boolean':
        out.set(f.name, { kind: 'boolean', value: d === true, set: typeof d === 'boolean' });
        break;
      case 'multi-enum':
        out.set(f.name, { kind: 'multi', values: Array.isArray(d) ? d : [] });
        break;
    }
  }
  return out;
}

/** The content to send, and the fields whose text could not even be read as their type. */
export interface BuiltContent {
  content: Record<string, unknown>;
  unreadable: Map<string, string>;
}

function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Drafts as elicitation content. An empty optional field is left out (the server's default
 * applies), except where leaving it out would bring back a default the person removed.
 */
export function buildContent(fields: ElicitField[], drafts: Drafts): BuiltContent {
  const content: Record<string, unknown> = {};
  const unreadable = new Map<string, string>();
  for (const f of fields) {
    const d = drafts.get(f.name);
    if (!d) continue;
    switch (d.kind) {
      case 'text': {
        if (d.text === '') {
          if (f.kind === 'string' && f.default !== undefined) put(content, f.name, '');
          break;
        }
        if (f.kind === 'string' && f.format === 'date-time') {
          const at = new Date(d.text);
          if (Number.isNaN(at.getTime())) unreadable.set(f.name, 'must be a date and time');
          else put(content, f.name, at.toISOString());
        } else put(content, f.name, d.text);
        break;
      }
      case 'number': {
        const t = d.text.trim();
        if (t === '') break;
        const n = Number(t);
        if (!Number.isFinite(n)) unreadable.set(f.name, 'must be a number');
        else put(content, f.name, n);
        break;
      }
      case 'boolean':
        if (d.set || f.required) put(content, f.name, d.value);
        break;
      case 'multi':
        if (d.values.length > 0 || f.required || (f.kind === 'multi-enum' && f.default !== undefined))
          put(content, f.name, d.values);
        break;
    }
  }
  return { content, unreadable };
}

/** An ISO date-time as a datetime-local input's value (local time, minutes). */
function toLocalInput(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
