/**
 * The fields of an elicitation form as the schema parser (elicitation-schema.ts) produces them
 * and the content check (elicitation-content.ts) reads them; both import this file, neither
 * the other's insides.
 */

/** One selectable option of an enum field. */
export interface ElicitOption {
  value: string;
  label: string;
}

/** What every field has, whatever its kind. */
export interface FieldBase {
  name: string;
  title?: string;
  description?: string;
  required: boolean;
}

/** The string formats the spec allows. */
export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';

/** One form field, as parsed from a property of requestedSchema. */
export type ElicitField =
  | (FieldBase & {
      kind: 'string';
      minLength?: number;
      maxLength?: number;
      format?: StringFormat;
      default?: string;
    })
  | (FieldBase & { kind: 'number'; integer: boolean; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'enum'; options: ElicitOption[]; default?: string })
  | (FieldBase & {
      kind: 'multi-enum';
      options: ElicitOption[];
      minItems?: number;
      maxItems?: number;
      default?: string[];
    });

/** A short, printable rendering of a field name (names may be huge or contain control characters). */
export function showName(name: string): string {
  const clipped = name.length > 60 ? `${name.slice(0, 60)}…` : name;
  return JSON.stringify(clipped);
}

/** What a value is, for messages ("a number", "an object"). */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  const t = typeof v;
  return t === 'object' || t === 'undefined' ? `${t === 'object' ? 'an' : ''} ${t}`.trim() : `a ${t}`;
}
