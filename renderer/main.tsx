import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { TokenGate } from './components/token-help-page.js';
import { createHostLink } from './host/create-host-link.js';
import { HostProvider } from './host/host-context.js';
import { HostStore } from './store/host-store.js';
import { AppearanceSync } from './components/appearance-sync.js';
import { restoreAppearance } from './lib/appearance.js';
import { forwardWindowErrors } from './lib/report-errors.js';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/servers.css';
import './styles/content.css';
import './styles/chat.css';
import './styles/chat-cards.css';
import './styles/chat-composer.css';
import './styles/chat-essentials.css';
import './styles/markdown.css';
import './styles/audit.css';
import './styles/roots.css';
import './styles/requests.css';
import './styles/quick-ask.css';
import './styles/permissions.css';
import './styles/settings.css';
import './styles/add-server.css';
import './styles/imports.css';
import './styles/mcp-app.css';
import './styles/registry.css';
import './styles/tool-trust.css';
import './styles/tool-warnings.css';
import './styles/tool-selection.css';
import './styles/flows.css';
import './styles/responsive.css';

// The theme and sizes of the last visit, before the first paint (the host's copy follows).
restoreAppearance();
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// One link for the page's lifetime: created outside React so StrictMode's double
// render cannot open two sockets.
const link = createHostLink();
const store = new HostStore(link);
// The tray's quick-ask window loads this same page with ?view=quick-ask.
const quickAsk = new URLSearchParams(window.location.search).get('view') === 'quick-ask';
// Uncaught errors of this window land in the app's log (Help › Open logs folder).
forwardWindowErrors(link.api, quickAsk ? 'quick-ask' : 'main');
// Only the tray's small window needs it, so it is a chunk of its own.
const QuickAskView = lazy(() =>
  import('./views/quick-ask/quick-ask-view.js').then((m) => ({ default: m.QuickAskView })),
);

createRoot(container).render(
  <StrictMode>
    <HostProvider link={link} store={store}>
      <AppearanceSync />
      <TokenGate>
        {quickAsk ? (
          <Suspense fallback={null}>
            <QuickAskView />
          </Suspense>
        ) : (
          <App />
        )}
      </TokenGate>
    </HostProvider>
  </StrictMode>,
);
