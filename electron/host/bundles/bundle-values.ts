import type { BundleConfigField, BundleValue } from '../../../shared/domain/bundles.js';
import { HostFailure } from '../util/errors.js';

/** The person's values, checked and split: plain ones for the entry, sensitive ones for the keychain. */
export interface CheckedValues {
  /** Non-sensitive values, typed, with every field that has one (given, previous or default). */
  plain: Record<string, BundleValue>;
  /** Sensitive values entered now: each goes to the keychain only. */
  secrets: Record<string, string>;
  /** Sensitive fields whose stored value is kept (an update where nothing new was entered). */
  kept: string[];
}

/**
 * Check the values given for a bundle's user_config: unknown keys, types (numbers and booleans
 * may come as text from `--set`), min/max, and required fields. An update starts from the
 * previous non-sensitive values and keeps stored sensitive ones unless a new one is entered.
 * Every problem is named in details.fields; a value is never quoted in a message.
 */
export function checkValues(
  fields: BundleConfigField[],
  given: Record<string, BundleValue>,
  storedSecrets: ReadonlySet<string>,
): CheckedValues {
  const problems: Record<string, string> = {};
  const byKey = new Map(fields.map((f) => [f.key, f]));
  for (const key of Object.keys(given))
    if (!byKey.has(key)) problems[key] = `"${key}" is not a setting of this bundle`;
  const out: CheckedValues = { plain: {}, secrets: {}, kept: [] };
  for (const field of fields) {
    const raw = given[field.key];
    const entered = raw !== undefined && raw !== '' && !(Array.isArray(raw) && raw.length === 0);
    if (field.sensitive) {
      if (entered) {
        const text = Array.isArray(raw) ? raw.join(',') : String(raw);
        out.secrets[field.key] = text;
      } else if (storedSecrets.has(field.key)) out.kept.push(field.key);
      else if (field.default !== undefined) out.plain[field.key] = field.default;
      else if (field.required) problems[field.key] = `${label(field)} is required`;
      continue;
    }
    const value = entered ? raw : (field.previous ?? field.default);
    if (value === undefined || value === '') {
      if (field.required) problems[field.key] = `${label(field)} is required`;
      continue;
    }
    const typed = coerce(field, value);
    if ('problem' in typed) problems[field.key] = typed.problem;
    else out.plain[field.key] = typed.value;
  }
  const keys = Object.keys(problems);
  if (keys.length > 0)
    throw new HostFailure(
      'bundle_values_invalid',
      keys.length === 1
        ? (problems[keys[0]] ?? '')
        : `${keys.length} settings need attention: ${keys.join(', ')}`,
      { fields: problems },
    );
  return out;
}

/** The value as the field's type, or why it cannot be. */
function coerce(field: BundleConfigField, value: BundleValue): { value: BundleValue } | { problem: string } {
  const name = label(field);
  if (field.type === 'boolean') {
    if (typeof value === 'boolean') return { value };
    if (value === 'true' || value === 'false') return { value: value === 'true' };
    return { problem: `${name} must be true or false` };
  }
  if (field.type === 'number') {
    const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
    if (!Number.isFinite(n)) return { problem: `${name} must be a number` };
    if (field.min !== undefined && n < field.min) return { problem: `${name} must be at least ${field.min}` };
    if (field.max !== undefined && n > field.max) return { problem: `${name} must be at most ${field.max}` };
    return { value: n };
  }
  if (field.multiple) {
    const list = Array.isArray(value) ? value : [String(value)];
    return { value: list.filter((v) => v !== '') };
  }
  if (Array.isArray(value)) return { problem: `${name} takes one value` };
  return { value: String(value) };
}

/** How a message names a field: its title for people, its key for `--set`. */
function label(field: BundleConfigField): string {
  return field.title && field.title !== field.key ? `${field.title} (${field.key})` : field.key;
}
