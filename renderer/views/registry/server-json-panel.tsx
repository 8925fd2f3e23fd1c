import { useState } from 'react';

/** Paste a server.json or choose the file; the host validates it and shows the install preview. */
export function ServerJsonPanel({
  onPreview,
  onClose,
}: {
  onPreview: (text: string) => void;
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  return (
    <div className="panel server-json-panel" data-testid="server-json-panel">
      <h2>Add from server.json</h2>
      <p className="muted">
        Paste a registry <code>server.json</code> or choose the file. It is checked against the published
        schema before anything is shown.
      </p>
      <textarea
        className="mono"
        rows={10}
        spellCheck={false}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-label="server.json"
        data-testid="server-json-text"
      />
      <div className="form-actions">
        <label className="button-like">
          Choose file…
          <input
            type="file"
            accept=".json,application/json"
            className="visually-hidden"
            data-testid="server-json-file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void file.text().then(setText);
            }}
          />
        </label>
        <button
          type="button"
          className="primary"
          disabled={!text.trim()}
          onClick={() => onPreview(text)}
          data-testid="server-json-preview"
        >
          Preview
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
