import { SchemaForm } from './schema-form.js';
import type { ArgsEditor } from './use-args-editor.js';

/** The generated form, or a JSON textarea when "raw JSON" is on, plus the toggle. */
export function ArgsEditorView({ editor, disabled }: { editor: ArgsEditor; disabled: boolean }) {
  const { mode } = editor;
  const rootErrors = editor.errors.filter((e) => e.path === '(arguments)');
  return (
    <div className="args-editor">
      <div className="args-editor-bar">
        <span className="section-title">Arguments</span>
        <label className="toggle">
          <input
            type="checkbox"
            checked={mode.kind === 'raw'}
            onChange={editor.toggleRaw}
            data-testid="raw-json-toggle"
          />
          raw JSON
        </label>
      </div>
      {mode.kind === 'form' ? (
        <SchemaForm
          root={editor.root}
          draft={mode.draft}
          errors={editor.errors}
          disabled={disabled}
          onChange={editor.setDraft}
        />
      ) : (
        <textarea
          className="mono raw-json"
          rows={10}
          spellCheck={false}
          value={mode.text}
          disabled={disabled}
          onChange={(e) => editor.setRawText(e.target.value)}
          data-testid="raw-json"
        />
      )}
      {rootErrors.map((e) => (
        <div key={e.message} className="field-error">
          {e.message}
        </div>
      ))}
    </div>
  );
}
