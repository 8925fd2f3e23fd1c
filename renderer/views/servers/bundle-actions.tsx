import { useRef, useState } from 'react';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import { isStdioConfig } from '../../../shared/domain/server-config.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { offerBundleFile } from '../../store/bundle-offer-store.js';

/** The bundle an entry was installed from, if any. */
export function bundleOf(server: ServerSummary) {
  return server.config && isStdioConfig(server.config) ? server.config.bundle : undefined;
}

/** A hidden .mcpb file input and the button that opens it; the picked file goes to the install dialog. */
export function PickBundleButton({ label, testId }: { label: string; testId: string }) {
  const host = useHost();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" onClick={() => input.current?.click()} data-testid={testId}>
        {label}
      </button>
      <input
        ref={input}
        type="file"
        accept=".mcpb"
        hidden
        aria-label={label}
        data-testid={`${testId}-file`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void offerBundleFile(host, file);
        }}
      />
    </>
  );
}

/** Servers › details of a bundle's server: its version, Update (pick the new file) and Uninstall. */
export function BundleActions({ server }: { server: ServerSummary }) {
  const host = useHost();
  const bundle = bundleOf(server);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<HostError | null>(null);
  if (!bundle) return null;
  const uninstall = () =>
    host.invoke('bundles.uninstall', { name: bundle.name }).then(
      () => setConfirming(false),
      (e: unknown) => setError(asHostError(e)),
    );
  return (
    <div className="bundle-actions" data-testid="bundle-actions">
      <p>
        Installed from the bundle <strong>{bundle.name}</strong>, version{' '}
        <span data-testid="bundle-installed-version">{bundle.version}</span>.
      </p>
      <div className="form-actions">
        <PickBundleButton label="Update…" testId="bundle-update" />
        {confirming ? (
          <>
            <button
              type="button"
              className="danger"
              onClick={() => void uninstall()}
              data-testid="bundle-uninstall-confirm"
            >
              Uninstall: remove its files and secrets
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setConfirming(true)} data-testid="bundle-uninstall">
            Uninstall
          </button>
        )}
      </div>
      {error && <ErrorBox error={error} testId="bundle-uninstall-error" />}
    </div>
  );
}
