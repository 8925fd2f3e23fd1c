import { useId, type ReactNode } from 'react';

/**
 * One labelled on/off setting of a server: a real checkbox with role=switch and its explanation;
 * without `help`, `describedBy` names an explanation shown once for many switches.
 */
export function SwitchRow({
  label,
  checked,
  disabled,
  onChange,
  testId,
  help,
  describedBy,
}: {
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
  testId: string;
  help?: ReactNode;
  describedBy?: string;
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
          aria-describedby={help ? helpId : describedBy}
          onChange={(e) => onChange(e.target.checked)}
          data-testid={testId}
        />
        <span>{label}</span>
      </label>
      {help && (
        <p id={helpId} className="muted trust-help">
          {help}
        </p>
      )}
    </div>
  );
}
