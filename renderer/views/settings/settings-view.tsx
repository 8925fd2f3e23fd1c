import { ErrorBox } from '../../components/error-box.js';
import { useAppSettings } from '../../hooks/use-app-settings.js';
import { useHostInfo } from '../../hooks/use-host-info.js';
import { AboutSection } from './about-section.js';
import { AppearanceSection } from './appearance-section.js';
import { ChatDefaultsSection } from './chat-defaults-section.js';
import { DataSection } from './data-section.js';
import { ModelEndpointSection } from './model-endpoint-section.js';
import { QuickAskSection } from './quick-ask-section.js';
import { ShortcutsSection } from './shortcuts-section.js';
import { UpdatesSection } from './updates-section.js';

/**
 * Settings of the app itself: appearance (applied at once, in every window), the Gemini
 * endpoint, the quick-ask shortcut, update checks, where files live and the keyboard shortcuts. Model,
 * key and tools stay in the chat's own settings drawer, next to the conversation they affect.
 */
export function SettingsView() {
  const app = useAppSettings();
  const info = useHostInfo();
  return (
    <section className="view settings-view" data-testid="settings-view">
      <header className="view-header">
        <h1>Settings</h1>
      </header>
      <div className="settings-body">
        {app.error && <ErrorBox error={app.error} />}
        {!app.state ? (
          !app.error && <p className="muted">Loading…</p>
        ) : (
          <>
            <AppearanceSection settings={app.state.settings} update={app.update} />
            <ModelEndpointSection override={app.state.geminiBaseUrlOverride} />
            <ChatDefaultsSection />
            <QuickAskSection
              setting={app.state.settings.quickAskShortcut}
              status={app.state.quickAsk}
              update={app.update}
            />
            <UpdatesSection
              setting={app.state.settings.autoUpdateCheck}
              status={app.state.updates}
              update={app.update}
            />
            <DataSection paths={app.state.paths} />
          </>
        )}
        <ShortcutsSection desktop={info?.mode === 'electron'} />
        <AboutSection version={info?.version} />
      </div>
    </section>
  );
}
