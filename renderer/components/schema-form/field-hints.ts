import { plural } from '../../lib/format.js';
import type { FieldSpec } from './schema-model.js';

/** A number's limits in words ("whole number, 1–100"), or undefined when it has none. */
export function rangeHint(
  min: number | undefined,
  max: number | undefined,
  integer: boolean,
): string | undefined {
  const kind = integer ? 'whole number' : 'number';
  if (min !== undefined && max !== undefined) return `${kind}, ${min}–${max}`;
  if (min !== undefined) return `${kind} ≥ ${min}`;
  if (max !== undefined) return `${kind} ≤ ${max}`;
  return undefined;
}

/** The limits a person should know before typing ("3–20 characters", "choose 1–3"). */
export function constraintHint(spec: FieldSpec): string {
  switch (spec.kind) {
    case 'string': {
      const { minLength: lo, maxLength: hi } = spec;
      if (lo !== undefined && hi !== undefined) return `${lo}–${hi} characters`;
      if (lo !== undefined) return `at least ${plural(lo, 'character')}`;
      if (hi !== undefined) return `at most ${plural(hi, 'character')}`;
      return '';
    }
    case 'number':
      return rangeHint(spec.minimum, spec.maximum, spec.integer) ?? (spec.integer ? 'whole number' : '');
    case 'multi': {
      const { minItems: lo, maxItems: hi } = spec;
      if (lo !== undefined && hi !== undefined) return `choose ${lo}–${hi}`;
      if (lo !== undefined) return `choose at least ${lo}`;
      if (hi !== undefined) return `choose at most ${hi}`;
      return '';
    }
    default:
      return '';
  }
}
