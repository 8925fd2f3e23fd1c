import { useState, type FormEvent } from 'react';
import { acceleratorProblem } from '../../../shared/domain/accelerator.js';
import type { QuickAskStatus } from '../../../shared/domain/app-settings.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import type { AppSettingsHandle } from '../../hooks/use-app-settings.js';

const DEFAULT_LABEL = 'CommandOrControl+Shift+Space';

function draftProblem(text: string): string | null {
  if (text === '' || text.toLowerCase() === 'off') return null;
  return acceleratorProblem(text);
}

/** What the shortcut does now, in a sentence. */
function statusText(s: QuickAskStatus): string {
  switch (s.kind) {
    case 'not-applicable':
      return '';
    case 'registered':
      return `Active: ${s.accelerator} opens the quick-ask window from any app.`;
    case 'off':
      return 'Off: open quick ask from the tray menu.';
    case 'failed':
      return `${s.accelerator} could not be registered: ${s.reason}. Quick ask is still in the tray menu.`;
  }
}

/**
 * The desktop app's global quick-ask shortcut, applied as soon as it is saved; the page shows
 * whether the system accepted it. Browser mode has no global shortcuts, and says so.
 */
export function QuickAskSection({
  setting,
  status,
  update,
}: {
  setting: string;
  status: QuickAskStatus;
  update: AppSettingsHandle['update'];
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  const value = draft ?? setting;
  const problem = draftProblem(value.trim());
  const save = async (next: string) => {
    const failed = await update({ quickAskShortcut: next });
    setError(failed);
    if (!failed) setDraft(null);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!problem) void save(value.trim());
  };

  return (
    <section className="settings-section" aria-labelledby="settings-quick-ask">
      <h2 id="settings-quick-ask">Quick ask</h2>
      {status.kind === 'not-applicable' ? (
        <p className="muted" data-testid="quick-ask-status" data-kind={status.kind}>
          Not available here: the quick-ask window and its global shortcut belong to the desktop app. In a
          browser, use the keyboard shortcuts below.
        </p>
      ) : (
        <form className="field" onSubmit={onSubmit} noValidate>
          <label htmlFor="settings-quick-ask-input">Global shortcut</label>
          <div className="settings-inline">
            <input
              id="settings-quick-ask-input"
              value={value}
              placeholder={`${DEFAULT_LABEL} (default)`}
              onChange={(e) => setDraft(e.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby="settings-quick-ask-help"
              data-testid="quick-ask-input"
            />
            <button
              type="submit"
              className="primary"
              disabled={problem !== null || value.trim() === setting}
              data-testid="quick-ask-save"
            >
              Save
            </button>
            <button type="button" onClick={() => void save('')} disabled={setting === ''}>
              Use default
            </button>
            <button type="button" onClick={() => void save('off')} disabled={setting === 'off'}>
              Turn off
            </button>
          </div>
          <p className="field-help" id="settings-quick-ask-help">
            Modifiers and one key joined by “+”, e.g. {DEFAULT_LABEL} or Alt+Shift+K. Empty uses the default.
          </p>
          {problem && <p className="field-error">{problem}</p>}
          <p
            className={status.kind === 'failed' ? 'banner warn' : 'field-help'}
            role="status"
            data-testid="quick-ask-status"
            data-kind={status.kind}
          >
            {statusText(status)}
          </p>
          {status.source === 'env' && (
            <p className="field-help" data-testid="quick-ask-env">
              MCP_DESK_QUICK_ASK_SHORTCUT is set, so it wins over this setting until the app starts without
              it.
            </p>
          )}
        </form>
      )}
      {error && <ErrorBox error={error} testId="quick-ask-error" />}
    </section>
  );
}
