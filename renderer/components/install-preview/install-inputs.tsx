import type { InstallInput } from '../../../shared/domain/registry.js';

/** Where each kind of value goes, in words. */
const TARGETS: Record<InstallInput['target'], string> = {
  env: 'environment variable',
  header: 'HTTP header',
  argument: 'argument',
  url: 'part of the URL',
};

/**
 * The values an install option needs: one field per input. A secret is a password field (its
 * value goes to the keychain, never into the saved entry), choices are a select, a boolean is
 * a yes/no select, a repeated argument takes one value per line.
 */
export function InstallInputs({
  inputs,
  values,
  onChange,
}: {
  inputs: InstallInput[];
  values: Record<string, string>;
  onChange: (id: string, value: string) => void;
}) {
  if (inputs.length === 0) return <p className="muted">This option needs no values.</p>;
  return (
    <div className="install-inputs" data-testid="install-inputs">
      {inputs.map((input) => {
        const id = `install-input-${input.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
        const help = [
          input.description,
          `${input.secret ? 'Secret ' : ''}${TARGETS[input.target]}${input.required ? ', required' : ''}`,
        ]
          .filter(Boolean)
          .join(' — ');
        return (
          <div className="field" key={input.id}>
            <label htmlFor={id}>
              {input.label}
              {input.required && <span aria-hidden="true"> *</span>}
            </label>
            <InputWidget id={id} input={input} value={values[input.id] ?? ''} onChange={onChange} />
            <div className="field-help" id={`${id}-help`}>
              {help}
            </div>
          </div>
        );
      })}
    </div>
  );
}

function InputWidget({
  id,
  input,
  value,
  onChange,
}: {
  id: string;
  input: InstallInput;
  value: string;
  onChange: (id: string, value: string) => void;
}) {
  const common = {
    id,
    'aria-describedby': `${id}-help`,
    'aria-required': input.required,
    'data-testid': `install-input-${input.id}`,
  };
  const choices = input.choices ?? (input.format === 'boolean' ? ['true', 'false'] : undefined);
  if (choices)
    return (
      <select {...common} value={value} onChange={(e) => onChange(input.id, e.target.value)}>
        <option value="">{input.default !== undefined ? `Default (${input.default})` : 'Choose…'}</option>
        {choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    );
  if (input.repeated && !input.secret)
    return (
      <textarea
        {...common}
        rows={3}
        value={value}
        placeholder={input.placeholder ?? 'One value per line'}
        onChange={(e) => onChange(input.id, e.target.value)}
      />
    );
  return (
    <input
      {...common}
      type={input.secret ? 'password' : 'text'}
      inputMode={input.format === 'number' ? 'decimal' : undefined}
      autoComplete="off"
      spellCheck={false}
      value={value}
      placeholder={input.preset ? 'Keep the value from the link' : (input.placeholder ?? input.default ?? '')}
      onChange={(e) => onChange(input.id, e.target.value)}
    />
  );
}
