import { KeyRound } from 'lucide-react';
import { useState, type Dispatch, type SetStateAction } from 'react';
import type { ServerSecretStatus } from '../../../shared/domain/server-secrets.js';
import type { HostError } from '../../../shared/ipc/host-error.js';
import { ErrorBox } from '../../components/error-box.js';
import { asSentence } from '../../components/not-stored-note.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { useServerSecrets } from '../../hooks/use-server-secrets.js';
import { secretRefsIn } from '../../../shared/domain/server-secrets.js';
import {
  findLiteralSecrets,
  replaceWithReference,
  type LiteralSecret,
  type SecretField,
} from './literal-secrets.js';
import type { ServerFormValues } from './server-form-model.js';

/**
 * The inline offer under Environment or Headers for one literal secret: store it in the OS
 * keychain (write-only, as a server secret) and put `${secret:NAME}` in its place, so the
 * value never reaches mcp-servers.json. The person may rename it, or keep the text as it is.
 * Where there is no keychain the reference still replaces the value, left unset, and the
 * notice says why (the same as an import does).
 */
export function SecretOffer({
  secret,
  onStored,
  onNoKeychain,
  onDismiss,
}: {
  secret: LiteralSecret;
  onStored: (name: string, list: ServerSecretStatus[]) => void;
  onNoKeychain: (name: string, reason: string) => void;
  onDismiss: () => void;
}) {
  const host = useHost();
  const [name, setName] = useState(secret.suggestedName);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostError | null>(null);
  const store = () => {
    const chosen = name.trim();
    if (!chosen) return;
    setBusy(true);
    setError(null);
    host.invoke('serverSecrets.set', { name: chosen, value: secret.value }).then(
      (list) => onStored(chosen, list),
      (e: unknown) => {
        const failure = asHostError(e);
        if (failure.code === 'keychain_unavailable') return onNoKeychain(chosen, failure.message);
        setBusy(false);
        setError(failure);
      },
    );
  };
  return (
    <div className="form-assist warn" data-testid={`secret-offer-${secret.key}`}>
      <KeyRound aria-hidden size={15} />
      <span className="assist-text">
        <code>{secret.key}</code> looks like a secret typed as plain text. The config file is plain text too:
        store the value in the OS keychain and use a reference instead.
      </span>
      <input
        aria-label={`Keychain name for ${secret.key}`}
        className="mono small-input"
        value={name}
        onChange={(e) => setName(e.target.value)}
        spellCheck={false}
        disabled={busy}
        data-testid={`secret-offer-name-${secret.key}`}
      />
      <button
        type="button"
        className="small primary"
        onClick={store}
        disabled={busy || !name.trim()}
        data-testid={`secret-offer-store-${secret.key}`}
      >
        {busy ? 'Storing…' : 'Store in keychain'}
      </button>
      <button
        type="button"
        className="small"
        onClick={onDismiss}
        data-testid={`secret-offer-keep-${secret.key}`}
      >
        Keep as text
      </button>
      {error && <ErrorBox error={error} testId={`secret-offer-error-${secret.key}`} />}
    </div>
  );
}

/** Every offer for one field (Environment or Headers), and what was just stored. */
export function SecretOffers({
  field,
  values,
  setValues,
}: {
  field: SecretField;
  values: ServerFormValues;
  setValues: Dispatch<SetStateAction<ServerFormValues>>;
}) {
  const secrets = useServerSecrets();
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => new Set());
  const [stored, setStored] = useState<{ name: string; noKeychain?: string } | null>(null);
  const text = values[field];
  // Names already in use (stored, or referenced in this form) are not offered again.
  const taken = new Set([...(secrets.list ?? []).map((s) => s.name), ...secretRefsIn(text)]);
  const hits = findLiteralSecrets(text, field, values.name.trim(), taken).filter(
    (h) => !dismissed.has(h.key),
  );
  return (
    <>
      {hits.map((hit) => (
        <SecretOffer
          key={`${hit.line}:${hit.key}`}
          secret={hit}
          onStored={(name, list) => {
            // Replace the literal in the form first: from now on only the reference exists here.
            setValues((v) => ({ ...v, [field]: replaceWithReference(v[field], hit, name) }));
            secrets.apply(list);
            setStored({ name });
          }}
          onNoKeychain={(name, reason) => {
            // The value has nowhere safe to go: it leaves the form, and the reference stays unset.
            setValues((v) => ({ ...v, [field]: replaceWithReference(v[field], hit, name) }));
            setStored({ name, noKeychain: reason });
          }}
          onDismiss={() => setDismissed((d) => new Set(d).add(hit.key))}
        />
      ))}
      {stored && stored.noKeychain === undefined && (
        <div className="form-assist" role="status" data-testid="secret-stored-notice">
          <KeyRound aria-hidden size={15} />
          <span className="assist-text">
            Stored in the keychain as <code>{`\${secret:${stored.name}}`}</code>; the config file keeps only
            that reference.
          </span>
        </div>
      )}
      {stored && stored.noKeychain !== undefined && (
        <div className="form-assist warn" role="status" data-testid="secret-not-stored-notice">
          <KeyRound aria-hidden size={15} />
          <span className="assist-text">
            Not stored: <code>{`\${secret:${stored.name}}`}</code> is not set — no keychain here. The config
            file keeps only that reference. {asSentence(stored.noKeychain)}
          </span>
        </div>
      )}
    </>
  );
}
