import { ClipboardCopy } from 'lucide-react';
import { useState } from 'react';
import type { HostError } from '../../../shared/ipc/host-error.js';
import { ErrorBox } from '../../components/error-box.js';
import { useHost } from '../../host/host-context.js';
import { asHostError } from '../../host/errors.js';

/**
 * About: "Copy diagnostics" for a bug report (versions, OS, the servers' states; the host
 * builds it with no secret and no config value). Where the clipboard is refused, the text is
 * shown to select by hand.
 */
export function AboutSection({ version }: { version: string | undefined }) {
  const host = useHost();
  const [note, setNote] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  const copy = async () => {
    setError(null);
    try {
      const { text } = await host.invoke('diagnostics.get', {});
      await navigator.clipboard.writeText(text).then(
        () => {
          setShown(null);
          setNote('Copied the diagnostics: paste them into your bug report.');
        },
        () => {
          setShown(text);
          setNote('The clipboard is not available here: select the text below and copy it.');
        },
      );
    } catch (e) {
      setError(asHostError(e));
    }
  };
  return (
    <section className="settings-section" aria-labelledby="settings-about">
      <h2 id="settings-about">About</h2>
      <p className="muted settings-intro">
        MCP Desk {version ?? ''}. Diagnostics list versions, the system and each server&apos;s state, never
        keys, commands or addresses; errors and crash reports stay in the data folder&apos;s logs and crashes
        folders and are never sent anywhere.
      </p>
      <div className="settings-inline">
        <button type="button" onClick={() => void copy()} data-testid="copy-diagnostics">
          <ClipboardCopy size={14} aria-hidden="true" /> Copy diagnostics
        </button>
      </div>
      {error && <ErrorBox error={error} />}
      <p className="field-help" role="status" data-testid="diagnostics-note">
        {note}
      </p>
      {shown !== null && (
        <textarea
          readOnly
          className="mono"
          rows={10}
          value={shown}
          aria-label="Diagnostics"
          data-testid="diagnostics-text"
        />
      )}
    </section>
  );
}
