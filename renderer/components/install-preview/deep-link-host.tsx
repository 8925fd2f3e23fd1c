import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { InstallPreview } from '../../../shared/domain/registry.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { ErrorBox } from '../error-box.js';

// The preview's code arrives with the first link, not the first paint.
const InstallDialog = lazy(() => import('./install-dialog.js').then((m) => ({ default: m.InstallDialog })));

/**
 * Install links, wherever the window is: the desktop app's links (taken from the host's inbox on
 * start and on every `deepLink.opened`) and, in browser mode, `/?install=<link>`. A link opens
 * the install preview only; the person installs from there or closes it.
 */
export function DeepLinkHost() {
  const host = useHost();
  const [preview, setPreview] = useState<InstallPreview | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  const open = useCallback(
    (url: string) =>
      host.invoke('deepLinks.preview', { url }).then(
        (p) => {
          setError(null);
          setPreview(p);
        },
        (e: unknown) => setError(asHostError(e)),
      ),
    [host],
  );

  useEffect(() => {
    const take = () =>
      host.invoke('deepLinks.take', {}).then(
        (urls) => {
          const last = urls.at(-1);
          if (last) void open(last);
        },
        () => undefined,
      );
    const params = new URLSearchParams(window.location.search);
    const fromPage = params.get('install');
    if (fromPage) {
      // Once read, the link leaves the address bar so a reload does not open it again.
      params.delete('install');
      const rest = params.toString();
      window.history.replaceState(
        null,
        '',
        `${window.location.pathname}${rest ? `?${rest}` : ''}${window.location.hash}`,
      );
      void open(fromPage);
    }
    void take();
    return host.on('deepLink.opened', () => void take());
  }, [host, open]);

  if (preview)
    return (
      <Suspense fallback={null}>
        <InstallDialog key={preview.previewId} preview={preview} onClose={() => setPreview(null)} />
      </Suspense>
    );
  if (error)
    return (
      <div className="install-link-error panel" role="alert" data-testid="install-link-error">
        <ErrorBox error={error} />
        <button type="button" className="small" onClick={() => setError(null)}>
          Dismiss
        </button>
      </div>
    );
  return null;
}
