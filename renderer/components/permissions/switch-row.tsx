import { useId, type ReactNode } from 'react';

/** One labelled on/off setting of a server: a real checkbox with role=switch and its explanation. */
export function SwitchRow({
  label,
  checked,
  disabled,
  onChange,
  testId,
  help,
}: {
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
  testId: string;
  help: ReactNode;
}) {
  const helpId = useId();
  return (
    <div className="trust-switch">
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={checked}
          disabled={disabled}
          aria-describedby={helpId}
          onChange={(e) => onChange(e.target.checked)}
          data-testid={testId}
        />
        <span>{label}</span>
      </label>
      <p id={helpId} className="muted trust-help">
        {help}
      </p>
    </div>
  );
}
