import { Package } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { BundlePreview } from '../../../shared/domain/bundles.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { showTarget } from '../../hooks/use-view-target.js';
import { bundleOfferStore, closeOffer } from '../../store/bundle-offer-store.js';
import { DryRunPanel } from '../dry-run/dry-run-panel.js';
import { ErrorBox } from '../error-box.js';
import { BundleFields } from './bundle-fields.js';
import { formErrors, formValues, initialForm, type BundleForm } from './bundle-form.js';
import { BundleSummary } from './bundle-summary.js';

/**
 * The install preview of a .mcpb, wherever it came from (Install bundle…, a drop, the file
 * manager): what it is, its settings form, and Install / Update / Cancel. A native modal dialog.
 */
export function BundleDialog({ onInstalled }: { onInstalled: () => void }) {
  const state = useStore(bundleOfferStore);
  const host = useHost();
  const dialog = useRef<HTMLDialogElement>(null);
  const open = state.kind !== 'idle';
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  const cancel = () => void closeOffer(host);
  const title =
    state.kind === 'preview'
      ? `${state.preview.installed ? 'Update' : 'Install'} ${state.preview.displayName}`
      : state.kind === 'idle'
        ? 'Install bundle'
        : state.fileName;
  return (
    <dialog
      ref={dialog}
      className="bundle-dialog"
      aria-labelledby="bundle-dialog-title"
      data-testid="bundle-dialog"
      onCancel={(e) => {
        e.preventDefault();
        cancel();
      }}
    >
      {open && (
        <div className="bundle-dialog-body">
          <h2 id="bundle-dialog-title">
            <Package size={18} aria-hidden="true" /> {title}
          </h2>
          {state.kind === 'reading' && (
            <p className="muted" role="status">
              Reading {state.fileName}…
            </p>
          )}
          {state.kind === 'error' && (
            <>
              <p>This file cannot be installed.</p>
              <ErrorBox error={state.error} testId="bundle-error" />
              <div className="form-actions">
                <button type="button" onClick={cancel} data-testid="bundle-cancel">
                  Close
                </button>
              </div>
            </>
          )}
          {state.kind === 'preview' && (
            <PreviewForm
              key={state.preview.stagingId}
              preview={state.preview}
              onCancel={cancel}
              onInstalled={(serverId) => {
                void closeOffer(host, true);
                onInstalled();
                showTarget({ view: 'servers', serverId });
              }}
            />
          )}
        </div>
      )}
    </dialog>
  );
}

function PreviewForm({
  preview,
  onCancel,
  onInstalled,
}: {
  preview: BundlePreview;
  onCancel: () => void;
  onInstalled: (serverId: string) => void;
}) {
  const host = useHost();
  const [form, setForm] = useState<BundleForm>(() => initialForm(preview.userConfig));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  // Its dry run starts by itself: Install waits for the report (or for Skip).
  const [dryRunning, setDryRunning] = useState(false);
  const [failure, setFailure] = useState<HostError | null>(null);
  const blocked = !preview.compatibility.ok || preview.conflict !== undefined;
  const verb = preview.installed ? 'Update' : 'Install';

  const submit = () => {
    const found = formErrors(preview.userConfig, form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setFailure(null);
    host
      .invoke('bundles.install', {
        stagingId: preview.stagingId,
        values: formValues(preview.userConfig, form),
      })
      .then(
        (result) => onInstalled(result.serverId),
        (error: unknown) => {
          const e = asHostError(error);
          setBusy(false);
          setFailure(e);
          if (e.details?.fields) setErrors(e.details.fields);
        },
      );
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      noValidate
    >
      <BundleSummary preview={preview} />
      <DryRunPanel
        request={{ source: 'bundle', stagingId: preview.stagingId }}
        disabled={busy}
        onRunning={setDryRunning}
        testId="bundle-dry-run"
      />
      <h3>Settings</h3>
      <BundleFields
        fields={preview.userConfig}
        form={form}
        errors={errors}
        onChange={(key, value) => setForm((f) => ({ ...f, [key]: value }))}
      />
      {failure && <ErrorBox error={failure} testId="bundle-install-error" />}
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={busy || blocked || dryRunning}
          data-testid="bundle-install"
        >
          {busy ? `${verb === 'Update' ? 'Updating' : 'Installing'}…` : verb}
        </button>
        <button type="button" onClick={onCancel} disabled={busy} data-testid="bundle-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}
