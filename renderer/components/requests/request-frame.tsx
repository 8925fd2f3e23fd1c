import type { ReactNode } from 'react';
import { ErrorBox } from '../../components/error-box.js';
import type { RespondState } from './use-respond.js';

/**
 * The outside of a request card (sampling or elicitation), with the refusal of the answer last
 * sent from it. Its step goes through as `data-stage` or `data-mode`, where tests look for it.
 */
export function RequestFrame(props: {
  kind: 'sampling' | 'elicitation';
  label: string;
  state: RespondState;
  errorTestId: string;
  children: ReactNode;
  'data-stage'?: 'request' | 'reply';
  'data-mode'?: 'form' | 'url';
}) {
  const { kind, label, state, errorTestId, children, ...step } = props;
  return (
    <section
      className={`request-card ${kind}-card`}
      data-testid={`${kind}-card`}
      {...step}
      aria-label={label}
    >
      {children}
      {state.kind === 'failed' && <ErrorBox error={state.error} testId={errorTestId} />}
    </section>
  );
}
