import { useState, type KeyboardEvent } from 'react';
import type { ServerSecretStatus } from '../../../shared/domain/server-secrets.js';
import { ErrorBox } from '../../components/error-box.js';
import { useHost } from '../../host/host-context.js';
import { useBusyCall } from '../../hooks/use-busy-call.js';

/**
 * One `${secret:NAME}`: whether it is stored, and a write-only field to set, replace or
 * remove it. The typed value goes to the host once and is cleared; nothing is read back.
 * Not a <form>: it sits inside the server form, so Enter saves the secret explicitly.
 * Without an OS keychain it says so, and why, instead of offering a field that cannot save.
 */
export function SecretRow({
  name,
  isSet,
  keychainError,
  onList,
}: {
  name: string;
  isSet: boolean;
  keychainError?: string | undefined;
  onList: (list: ServerSecretStatus[]) => void;
}) {
  const host = useHost();
  const [value, setValue] = useState('');
  const call = useBusyCall();
  const { busy, error } = call;
  const run = (request: Promise<ServerSecretStatus[]>) =>
    call.run(request, (list) => {
      setValue('');
      onList(list);
    });
  const save = () => {
    if (value) run(host.invoke('serverSecrets.set', { name, value }));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    save();
  };

  const noKeychain = keychainError !== undefined && !isSet;
  const head = (
    <>
      <span className="mono">{name}</span> —{' '}
      <span data-testid={`secret-state-${name}`}>{secretStateText(isSet, keychainError)}</span>
    </>
  );

  return (
    <div className="secret-row" data-testid={`secret-row-${name}`} data-set={isSet ? 'true' : 'false'}>
      {noKeychain ? <div>{head}</div> : <label htmlFor={`secret-${name}`}>{head}</label>}
      {noKeychain ? (
        <div className="field-help" data-testid={`secret-no-keychain-${name}`}>
          {keychainError}
        </div>
      ) : (
        <div className="inline-row">
          <input
            id={`secret-${name}`}
            type="password"
            value={value}
            placeholder={isSet ? 'Stored. Type a new value to replace it' : 'Value'}
            autoComplete="off"
            spellCheck={false}
            disabled={busy}
            onChange={(e) => setValue(e.target.value)}
            onKeyDown={onKeyDown}
            data-testid={`secret-input-${name}`}
          />
          <button
            type="button"
            className="small primary"
            disabled={busy || !value}
            onClick={save}
            data-testid={`secret-save-${name}`}
          >
            Save
          </button>
          {isSet && (
            <button
              type="button"
              className="small danger-text"
              disabled={busy}
              onClick={() => run(host.invoke('serverSecrets.delete', { name }))}
              data-testid={`secret-remove-${name}`}
            >
              Remove
            </button>
          )}
        </div>
      )}
      {error && <ErrorBox error={error} testId={`secret-error-${name}`} />}
    </div>
  );
}

/** "set", "not set", or "not set — no keychain here" where no value can be stored at all. */
export function secretStateText(isSet: boolean, keychainError: string | undefined): string {
  if (isSet) return 'set';
  return keychainError !== undefined ? 'not set — no keychain here' : 'not set';
}
