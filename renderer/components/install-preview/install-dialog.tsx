import { useEffect, useId, useRef, useState } from 'react';
import type { InstallPreview } from '../../../shared/domain/registry.js';
import { DryRunPanel } from '../dry-run/dry-run-panel.js';
import { ErrorBox } from '../error-box.js';
import { NotStoredNote } from '../not-stored-note.js';
import { useServers } from '../../hooks/use-servers.js';
import { InstallInputs } from './install-inputs.js';
import { useInstallForm } from './use-install.js';
import { bundleOfferStore } from '../../store/bundle-offer-store.js';

/**
 * The install preview, shared by the registry browser, a pasted server.json and install links:
 * what the server is, which way to run it, the values it needs and the entry exactly as it will
 * be saved (secrets as `${secret:NAME}` references). Nothing is installed until Install is
 * pressed; afterwards the dialog shows the new server's state as it connects.
 */
export function InstallDialog({ preview, onClose }: { preview: InstallPreview; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const form = useInstallForm(preview);
  // The dry run starts by itself once the entry resolves: Install waits for it (or for Skip).
  const [dryRunning, setDryRunning] = useState(false);
  const outcome = form.outcome;
  // A registry bundle continues in the one bundle dialog (its user_config form, signature, update).
  useEffect(() => {
    if (outcome?.kind !== 'bundle') return;
    bundleOfferStore.setState({ kind: 'preview', preview: outcome.preview }, true);
    onClose();
  }, [outcome, onClose]);
  const chosen = preview.options.find((o) => o.id === form.option);
  const s = preview.server;
  const title = s.title ?? s.name;
  const formId = `install-form-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  return (
    <dialog
      ref={ref}
      className="install-dialog panel"
      aria-labelledby="install-title"
      onClose={onClose}
      data-testid="install-dialog"
    >
      <header className="detail-head">
        <h2 id="install-title">Install {title}</h2>
      </header>
      <p className="muted install-identity">
        {s.name}
        {s.version ? ` · version ${s.version}` : ''}
        {preview.source === 'link' ? ' · from an install link' : ''}
      </p>
      {s.description && <p>{s.description}</p>}
      {s.repositoryUrl && <p className="muted">Source: {s.repositoryUrl}</p>}
      {!preview.validation.ok && (
        <div className="error-box" role="alert" data-testid="install-validation">
          <span className="error-message">This server.json does not pass the published schema:</span>
          <ul>
            {preview.validation.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      {preview.warnings.map((w) => (
        <p className="notice" key={w} data-testid="install-warning">
          {w}
        </p>
      ))}
      {form.outcome ? (
        <Installed outcome={form.outcome} />
      ) : (
        preview.options.length > 0 && (
          <form
            id={formId}
            className="install-form"
            onSubmit={(e) => {
              e.preventDefault();
              void form.install();
            }}
          >
            {preview.options.length > 1 && (
              <fieldset className="install-options">
                <legend>How to run it</legend>
                {preview.options.map((o) => (
                  <label key={o.id} className="install-option">
                    <input
                      type="radio"
                      name="install-option"
                      value={o.id}
                      checked={form.option === o.id}
                      disabled={!o.available}
                      onChange={() => form.setOption(o.id)}
                      data-testid={`install-option-${o.id}`}
                    />{' '}
                    {o.label}
                    {!o.available && <span className="muted"> — {o.reason}</span>}
                  </label>
                ))}
              </fieldset>
            )}
            {chosen && !chosen.available && <p className="notice">{chosen.reason}</p>}
            <div className="field">
              <label htmlFor="install-name">Name in MCP Desk</label>
              <input
                id="install-name"
                value={form.name}
                onChange={(e) => form.setName(e.target.value)}
                data-testid="install-name"
              />
            </div>
            {chosen?.available && (
              <InstallInputs inputs={chosen.inputs} values={form.values} onChange={form.setValue} />
            )}
            {chosen?.available && !chosen.bundle && (
              <section aria-label="Entry as it will be saved">
                <h3>Saved as</h3>
                <pre className="mono install-entry" data-testid="install-entry">
                  {form.resolved?.entry
                    ? JSON.stringify(form.resolved.entry, null, 2)
                    : form.resolved?.missing.length
                      ? `Fill in: ${form.resolved.missing.join(', ')}`
                      : (form.resolved?.problems.join('\n') ?? '…')}
                </pre>
                {(form.resolved?.secrets.length ?? 0) > 0 && (
                  <p className="muted">Stored in the keychain: {form.resolved?.secrets.join(', ')}</p>
                )}
                <DryRunPanel
                  request={
                    form.resolved?.entry
                      ? {
                          source: 'registry',
                          previewId: preview.previewId,
                          option: form.option,
                          values: form.values,
                          name: form.name.trim(),
                        }
                      : null
                  }
                  disabled={form.installing}
                  onRunning={setDryRunning}
                  testId="install-dry-run"
                />
              </section>
            )}
            {form.resolveError && <ErrorBox error={form.resolveError} />}
            {form.installError && <ErrorBox error={form.installError} testId="install-error" />}
          </form>
        )
      )}
      {/* The dialog's answers, together at its foot: Install beside Cancel (Done once installed). */}
      <div className="form-actions install-actions">
        {!form.outcome && preview.options.length > 0 && (
          <button
            type="submit"
            form={formId}
            className="primary"
            disabled={!chosen?.available || !form.name.trim() || form.installing || dryRunning}
            data-testid="install-confirm"
          >
            {chosen?.bundle ? 'Download and check' : form.installing ? 'Installing…' : 'Install'}
          </button>
        )}
        <button type="button" onClick={onClose} data-testid="install-close">
          {form.outcome ? 'Done' : 'Cancel'}
        </button>
      </div>
    </dialog>
  );
}

function Installed({ outcome }: { outcome: NonNullable<ReturnType<typeof useInstallForm>['outcome']> }) {
  const servers = useServers();
  if (outcome.kind === 'bundle')
    return (
      <p className="notice" data-testid="install-bundle">
        The bundle was downloaded and its checksum matches; its install preview is open.
      </p>
    );
  const id = outcome.server.id;
  const live = servers.kind === 'ready' ? servers.servers.find((x) => x.id === id) : undefined;
  const state = (live ?? outcome.server).state.kind;
  return (
    <>
      <p className="notice" role="status" data-testid="install-done" data-state={state}>
        Installed “{id}”:{' '}
        {state === 'connected' ? 'connected' : state === 'failed' ? 'failed to start' : `${state}…`}
      </p>
      {outcome.notStored && <NotStoredNote notStored={outcome.notStored} testId="install-not-stored" />}
    </>
  );
}
