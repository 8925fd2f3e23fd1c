import type { BundleConfigField, BundleValue } from '../../../shared/domain/bundles.js';

/** The form's state: text for text-like fields (a list: one item per line), a flag for booleans. */
export type BundleForm = Record<string, string | boolean>;

/** Prefilled from the installed version's values, else the manifest's defaults; sensitive ones start empty. */
export function initialForm(fields: BundleConfigField[]): BundleForm {
  const form: BundleForm = {};
  for (const f of fields) {
    const start = f.sensitive ? undefined : (f.previous ?? f.default);
    if (f.type === 'boolean') form[f.key] = start === true || start === 'true';
    else if (Array.isArray(start)) form[f.key] = start.join('\n');
    else form[f.key] = start === undefined ? '' : String(start);
  }
  return form;
}

/** What the form must fix before Install, by field key (the host checks again). */
export function formErrors(fields: BundleConfigField[], form: BundleForm): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const v = form[f.key];
    if (typeof v === 'boolean') continue;
    const text = (v ?? '').trim();
    if (text === '') {
      if (f.required && !(f.sensitive && f.stored)) errors[f.key] = `${f.title} is required`;
      continue;
    }
    if (f.type === 'number') {
      const n = Number(text);
      if (!Number.isFinite(n)) errors[f.key] = `${f.title} must be a number`;
      else if (f.min !== undefined && n < f.min) errors[f.key] = `${f.title} must be at least ${f.min}`;
      else if (f.max !== undefined && n > f.max) errors[f.key] = `${f.title} must be at most ${f.max}`;
    }
  }
  return errors;
}

/** The values to send: empty fields are left out (defaults and stored secrets apply on the host). */
export function formValues(fields: BundleConfigField[], form: BundleForm): Record<string, BundleValue> {
  const out: Record<string, BundleValue> = {};
  for (const f of fields) {
    const v = form[f.key];
    if (typeof v === 'boolean') {
      out[f.key] = v;
      continue;
    }
    const text = (v ?? '').trim();
    if (text === '') continue;
    if (f.type === 'number') out[f.key] = Number(text);
    else if (f.multiple)
      out[f.key] = text
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean);
    else out[f.key] = f.sensitive ? v : text;
  }
  return out;
}
