import { useState, type ReactNode } from 'react';
import type { HostError, ServerAuth } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';

type Busy = { kind: 'idle' } | { kind: 'busy' } | { kind: 'failed'; error: HostError };

/**
 * A remote server's OAuth sign-in, in the words a person needs: what stands, and the one
 * thing to do about it. The sign-in itself happens in the system browser; no token ever
 * reaches this page, only the state.
 */
export function SignInBar({ serverId, auth }: { serverId: string; auth: ServerAuth | undefined }) {
  const host = useHost();
  const [busy, setBusy] = useState<Busy>({ kind: 'idle' });
  if (!auth || auth.kind === 'none') return null;
  const run = (call: () => Promise<unknown>) => {
    setBusy({ kind: 'busy' });
    call().then(
      () => setBusy({ kind: 'idle' }),
      (error: unknown) => {
        const e = asHostError(error);
        // A cancel is the person's own choice, and a failure shows in the bar itself.
        setBusy(
          e.code === 'cancelled' || e.code === 'sign_in_failed' || e.code === 'sign_in_limit'
            ? { kind: 'idle' }
            : { kind: 'failed', error: e },
        );
      },
    );
  };
  const signIn = () => run(() => host.invoke('auth.signIn', { serverId }));
  const disabled = busy.kind === 'busy';
  let body: ReactNode;
  switch (auth.kind) {
    case 'sign-in-needed':
      body = (
        <>
          <span>Sign-in needed</span>
          <button
            type="button"
            className="small primary"
            disabled={disabled}
            onClick={signIn}
            data-testid={`sign-in-${serverId}`}
          >
            Sign in
          </button>
        </>
      );
      break;
    case 'signing-in':
      body = (
        <>
          <span>Signing in… (finish in your browser)</span>
          <button
            type="button"
            className="small"
            onClick={() => run(() => host.invoke('auth.cancel', { serverId }))}
            data-testid={`cancel-sign-in-${serverId}`}
          >
            Cancel
          </button>
        </>
      );
      break;
    case 'signed-in':
      body = (
        <>
          <span>Signed in</span>
          <button
            type="button"
            className="small"
            disabled={disabled}
            onClick={() => run(() => host.invoke('auth.signOut', { serverId }))}
            data-testid={`sign-out-${serverId}`}
          >
            Sign out
          </button>
        </>
      );
      break;
    case 'failed':
      body = (
        <>
          <span className="error-text">Sign-in failed: {auth.reason}</span>
          <button
            type="button"
            className="small"
            disabled={disabled}
            onClick={signIn}
            data-testid={`sign-in-${serverId}`}
          >
            Try again
          </button>
        </>
      );
      break;
  }
  return (
    <div
      className={`sign-in-bar sign-in-${auth.kind}`}
      data-testid={`sign-in-bar-${serverId}`}
      data-auth={auth.kind}
    >
      {body}
      {busy.kind === 'failed' && <ErrorBox error={busy.error} testId={`sign-in-error-${serverId}`} />}
    </div>
  );
}
