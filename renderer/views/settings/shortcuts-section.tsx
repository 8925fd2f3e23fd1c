import { appShortcuts, shortcutLabel } from '../../hooks/use-app-shortcuts.js';

/** Every app shortcut, from the same list the handler uses, so the two cannot disagree. */
export function ShortcutsSection({ desktop }: { desktop: boolean }) {
  return (
    <section className="settings-section" aria-labelledby="settings-shortcuts">
      <h2 id="settings-shortcuts">Keyboard shortcuts</h2>
      <table className="shortcut-table" data-testid="shortcut-list">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Does</th>
          </tr>
        </thead>
        <tbody>
          {appShortcuts(desktop).map((s) => (
            <tr key={s.id}>
              <td>
                <kbd>{shortcutLabel(s)}</kbd>
              </td>
              <td>{s.description}</td>
            </tr>
          ))}
          <tr>
            <td>
              <kbd>Enter</kbd> / <kbd>Shift+Enter</kbd>
            </td>
            <td>In the message box: send / start a new line</td>
          </tr>
        </tbody>
      </table>
    </section>
  );
}
