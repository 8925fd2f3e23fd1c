import { Copy } from 'lucide-react';
import { useRef, useState } from 'react';
import type { AppSettingsState } from '../../../shared/domain/app-settings.js';

/** Where this host keeps its files (read-only here), each with a button that copies the path. */
export function DataSection({ paths }: { paths: AppSettingsState['paths'] }) {
  const [note, setNote] = useState('');
  const rows = [
    {
      id: 'data-dir',
      label: 'Data folder',
      value: paths.dataDir,
      empty: 'None: this session keeps conversations and settings in memory only.',
    },
    { id: 'config-path', label: 'Servers file', value: paths.configPath, empty: '' },
    {
      id: 'settings-path',
      label: 'Settings file',
      value: paths.settingsPath,
      empty: 'None: settings are not saved this session.',
    },
  ];
  return (
    <section className="settings-section" aria-labelledby="settings-data">
      <h2 id="settings-data">Where your data lives</h2>
      <p className="muted settings-intro">
        Conversations, settings and the activity log are in the data folder; API keys are in the system
        keychain, never in these files. Start the app with MCP_DESK_DATA_DIR set to use another folder.
      </p>
      {rows.map((r) => (
        <PathRow key={r.id} {...r} onNote={setNote} />
      ))}
      <p className="field-help" role="status" data-testid="copy-note">
        {note}
      </p>
    </section>
  );
}

function PathRow({
  id,
  label,
  value,
  empty,
  onNote,
}: {
  id: string;
  label: string;
  value: string | null;
  empty: string;
  onNote: (note: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const copy = () => {
    if (!value) return;
    navigator.clipboard.writeText(value).then(
      () => onNote(`Copied the ${label.toLowerCase()} path.`),
      () => {
        // No clipboard access (an insecure page, a denied permission): select it for Ctrl+C.
        input.current?.select();
        input.current?.focus();
        onNote('The clipboard is not available here: the path is selected, press Ctrl+C to copy it.');
      },
    );
  };
  return (
    <div className="field">
      <label htmlFor={`settings-${id}`}>{label}</label>
      {value ? (
        <div className="settings-inline">
          <input id={`settings-${id}`} ref={input} readOnly value={value} className="mono" data-testid={id} />
          <button
            type="button"
            onClick={copy}
            aria-label={`Copy path of the ${label.toLowerCase()}`}
            data-testid={`copy-${id}`}
          >
            <Copy size={14} aria-hidden="true" /> Copy path
          </button>
        </div>
      ) : (
        <p className="muted" id={`settings-${id}`}>
          {empty}
        </p>
      )}
    </div>
  );
}
