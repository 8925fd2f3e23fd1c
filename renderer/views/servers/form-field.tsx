import type { ReactNode } from 'react';

/** A labelled form row with help text and an inline error. */
export function FormRow({
  id,
  label,
  help,
  error,
  errorTestId,
  children,
}: {
  id: string;
  label: string;
  help?: ReactNode;
  error?: string;
  errorTestId?: string;
  children: ReactNode;
}) {
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {help && <div className="field-help">{help}</div>}
      {error && (
        <div className="field-error" data-testid={errorTestId}>
          {error}
        </div>
      )}
    </div>
  );
}
