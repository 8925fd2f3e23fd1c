import { useState, type FormEvent } from 'react';
import type { SecretStatus } from '../../../shared/domain/chat.js';
import { ErrorBox } from '../../components/error-box.js';
import { useHost } from '../../host/host-context.js';
import { useBusyCall } from '../../hooks/use-busy-call.js';
import { Icon } from '../../components/icons.js';

type SecretName = 'geminiApiKey' | 'openaiApiKey';

/**
 * A write-only API key: the person can set, replace or remove it, and sees only whether
 * one is stored. The typed value goes to the host once and is cleared from the field.
 */
export function ApiKeyField({
  name,
  label,
  status,
  onStatus,
}: {
  name: SecretName;
  label: string;
  status: SecretStatus | null;
  onStatus: (s: SecretStatus) => void;
}) {
  const host = useHost();
  const [value, setValue] = useState('');
  const call = useBusyCall();
  const { busy, error } = call;
  const [saved, setSaved] = useState<string | null>(null);
  const isSet = status?.[name] === true;

  const run = (request: Promise<SecretStatus>, done: string) => {
    setSaved(null);
    call.run(request, (s) => {
      setValue('');
      setSaved(done);
      onStatus(s);
    });
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const key = value.trim();
    if (key) run(host.invoke('secrets.set', { name, value: key }), isSet ? 'Key replaced.' : 'Key saved.');
  };

  return (
    <form className="field api-key-field" onSubmit={onSubmit} autoComplete="off">
      <label htmlFor={`api-key-${name}`}>{label}</label>
      <input
        id={`api-key-${name}`}
        type="password"
        value={value}
        placeholder={isSet ? 'Stored. Type a new key to replace it' : 'Paste your API key'}
        autoComplete="off"
        spellCheck={false}
        disabled={busy}
        onChange={(e) => setValue(e.target.value)}
        data-testid="api-key-input"
      />
      <div className="inline-row">
        <button
          type="submit"
          className="primary small"
          disabled={busy || !value.trim()}
          data-testid="api-key-save"
        >
          {isSet ? 'Replace key' : 'Set key'}
        </button>
        {isSet && (
          <button
            type="button"
            className="small danger-text"
            disabled={busy}
            onClick={() => run(host.invoke('secrets.delete', { name }), 'Key removed.')}
            data-testid="api-key-remove"
          >
            Remove key
          </button>
        )}
      </div>
      <div className="field-help" data-testid="api-key-status" data-set={isSet ? 'true' : 'false'}>
        {status === null ? (
          'Checking…'
        ) : isSet ? (
          <>
            <Icon name="check" size={14} /> A key is stored.
          </>
        ) : (
          'No key stored.'
        )}
        {saved && <span className="ok-text"> {saved}</span>}
      </div>
      {status?.keychainError && (
        <div className="field-error">Keychain unavailable: {status.keychainError}</div>
      )}
      {error && <ErrorBox error={error} testId="api-key-error" />}
    </form>
  );
}
