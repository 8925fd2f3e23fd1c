import { useState } from 'react';
import { DEFAULT_REGISTRY_URL } from '../../../shared/domain/registry.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { useAppSettings } from '../../hooks/use-app-settings.js';

/** The registry's address, an app setting: https, or http only to this machine. */
export function RegistryUrlField() {
  const { state, update } = useAppSettings();
  const saved = state?.settings.registryUrl ?? '';
  const [draft, setDraft] = useState(saved);
  const [error, setError] = useState<HostError | null>(null);
  // Another window (or Settings) changed it: show the new value.
  const [seen, setSeen] = useState(saved);
  if (saved !== seen) {
    setSeen(saved);
    setDraft(saved);
  }
  const save = async (value: string) => setError(await update({ registryUrl: value }));
  return (
    <form
      className="registry-url"
      onSubmit={(e) => {
        e.preventDefault();
        void save(draft.trim());
      }}
    >
      <div className="field">
        <label htmlFor="registry-url">Registry</label>
        <input
          id="registry-url"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          spellCheck={false}
          data-testid="registry-url"
        />
      </div>
      <button type="submit" disabled={draft.trim() === saved} data-testid="registry-url-save">
        Use this registry
      </button>
      {saved !== DEFAULT_REGISTRY_URL && (
        <button type="button" onClick={() => void save(DEFAULT_REGISTRY_URL)}>
          Use the official registry
        </button>
      )}
      {error && <ErrorBox error={error} />}
    </form>
  );
}
