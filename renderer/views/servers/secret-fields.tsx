import { secretRefsIn } from '../../../shared/domain/server-secrets.js';
import { useServerSecrets } from '../../hooks/use-server-secrets.js';
import type { ServerFormValues } from './server-form-model.js';
import { SecretRow } from './secret-row.js';

/** The names the form's text references as `${secret:NAME}`, live while the person types. */
function referencedNames(values: ServerFormValues): string[] {
  const fields =
    values.transport === 'stdio'
      ? [values.command, values.args, values.env, values.cwd]
      : [values.url, values.headers, values.oauthClientSecret];
  const text = fields.join('\n');
  return secretRefsIn(text);
}

/** A write-only row for each secret the entry references; shown only when it references any. */
export function SecretFields({ values }: { values: ServerFormValues }) {
  const secrets = useServerSecrets();
  const names = referencedNames(values);
  if (names.length === 0) return null;
  const isSet = (name: string) => secrets.list?.some((s) => s.name === name && s.set) === true;
  // The same for every name: whether this machine has a keychain at all.
  const keychainError = secrets.list?.find((s) => s.keychainError !== undefined)?.keychainError;
  return (
    <fieldset className="field secret-fields" data-testid="secret-fields">
      <legend>Secrets</legend>
      <div className="field-help">
        Values for the <span className="mono">{'${secret:NAME}'}</span> references above, kept in the OS
        keychain. They are never shown again: type a new value to replace one. Saving restarts the servers
        that use it.
      </div>
      {secrets.error && <div className="field-error">Cannot read the keychain: {secrets.error}</div>}
      {names.map((name) => (
        <SecretRow
          key={name}
          name={name}
          isSet={isSet(name)}
          keychainError={keychainError}
          onList={secrets.apply}
        />
      ))}
    </fieldset>
  );
}
