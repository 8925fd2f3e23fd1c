import type { BundleConfigField } from '../../../shared/domain/bundles.js';
import type { BundleForm } from './bundle-form.js';

/**
 * The bundle's user_config as a form. Sensitive values are password fields that start empty
 * (a stored one is kept unless something is typed). Files and folders are typed as paths: a
 * browser page cannot learn a picked file's path, and the desktop app's pickers would give the
 * same text.
 */
export function BundleFields({
  fields,
  form,
  errors,
  onChange,
}: {
  fields: BundleConfigField[];
  form: BundleForm;
  errors: Record<string, string>;
  onChange: (key: string, value: string | boolean) => void;
}) {
  if (fields.length === 0) return <p className="muted">This bundle needs no settings.</p>;
  return (
    <div className="bundle-fields">
      {fields.map((f) => {
        const id = `bundle-field-${f.key}`;
        const error = errors[f.key];
        const description =
          f.description && !/[.!?]$/.test(f.description) ? `${f.description}.` : f.description;
        const help = [description, hintFor(f)].filter(Boolean).join(' ');
        const value = form[f.key];
        const common = {
          id,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': `${id}-help`,
          'data-testid': id,
        } as const;
        return (
          <div key={f.key} className={`field${error ? ' has-error' : ''}`}>
            {f.type === 'boolean' ? (
              <label htmlFor={id} className="checkbox-row">
                <input
                  {...common}
                  type="checkbox"
                  checked={value === true}
                  onChange={(e) => onChange(f.key, e.target.checked)}
                />{' '}
                {f.title}
              </label>
            ) : (
              <>
                <label htmlFor={id}>
                  {f.title}
                  {f.required && <span aria-hidden="true"> *</span>}
                </label>
                {f.multiple ? (
                  <textarea
                    {...common}
                    className="mono"
                    rows={3}
                    required={f.required}
                    value={String(value ?? '')}
                    onChange={(e) => onChange(f.key, e.target.value)}
                  />
                ) : (
                  <input
                    {...common}
                    className={f.type === 'file' || f.type === 'directory' ? 'mono' : undefined}
                    type={f.sensitive ? 'password' : f.type === 'number' ? 'number' : 'text'}
                    autoComplete={f.sensitive ? 'new-password' : 'off'}
                    spellCheck={false}
                    required={f.required && !(f.sensitive && f.stored)}
                    min={f.min}
                    max={f.max}
                    placeholder={f.sensitive && f.stored ? 'Stored — leave empty to keep it' : undefined}
                    value={String(value ?? '')}
                    onChange={(e) => onChange(f.key, e.target.value)}
                  />
                )}
              </>
            )}
            <div className="field-help" id={`${id}-help`}>
              {help}
            </div>
            {error && (
              <div className="field-error" data-testid={`${id}-error`}>
                {error}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}

function hintFor(f: BundleConfigField): string {
  const parts: string[] = [];
  if (f.sensitive) parts.push('Kept in the system keychain only.');
  if (f.type === 'directory') parts.push('A folder path.');
  if (f.type === 'file') parts.push('A file path.');
  if (f.multiple) parts.push('One per line.');
  if (f.min !== undefined && f.max !== undefined) parts.push(`From ${f.min} to ${f.max}.`);
  else if (f.min !== undefined) parts.push(`At least ${f.min}.`);
  else if (f.max !== undefined) parts.push(`At most ${f.max}.`);
  return parts.join(' ');
}
