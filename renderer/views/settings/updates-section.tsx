import { useState } from 'react';
import type { UpdateCheckStatus } from '../../../shared/domain/app-settings.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import type { AppSettingsHandle } from '../../hooks/use-app-settings.js';

/** What the checks do now, in a sentence. */
function statusText(s: UpdateCheckStatus): string {
  switch (s.kind) {
    case 'not-applicable':
      return '';
    case 'on':
      return 'On: MCP Desk looks for a new version when it starts and once a day, and downloads it in the background. “Restart to update” then appears in the tray and the app menu, never while a request waits for you.';
    case 'off':
      return 'Off: MCP Desk does not look for new versions.';
  }
}

/**
 * Whether the installed app looks for updates. Browser mode, the CLI and a development build
 * have no updater, and the page says updates apply to the installed app.
 */
export function UpdatesSection({
  setting,
  status,
  update,
}: {
  setting: boolean;
  status: UpdateCheckStatus;
  update: AppSettingsHandle['update'];
}) {
  const [error, setError] = useState<HostError | null>(null);
  const change = async (next: boolean) => setError(await update({ autoUpdateCheck: next }));

  return (
    <section className="settings-section" aria-labelledby="settings-updates">
      <h2 id="settings-updates">Updates</h2>
      {status.kind === 'not-applicable' ? (
        <p className="muted" data-testid="updates-status" data-kind={status.kind}>
          Updates apply to the installed desktop app: it checks for new versions itself. This copy (a browser,
          the command line or a development build) is updated by installing a new version.
        </p>
      ) : (
        <div className="field">
          <label className="checkbox-line">
            <input
              type="checkbox"
              checked={setting}
              onChange={(e) => void change(e.target.checked)}
              data-testid="updates-check"
            />
            Check for updates automatically
          </label>
          <p className="field-help" role="status" data-testid="updates-status" data-kind={status.kind}>
            {statusText(status)}
          </p>
          {status.kind === 'off' && status.source === 'env' && (
            <p className="field-help" data-testid="updates-env">
              MCP_DESK_UPDATES=off is set, so no checks run whatever this setting says, until the app starts
              without it.
            </p>
          )}
        </div>
      )}
      {error && <ErrorBox error={error} testId="updates-error" />}
    </section>
  );
}
