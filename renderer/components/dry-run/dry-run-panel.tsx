import { FlaskConical } from 'lucide-react';
import { useState } from 'react';
import type { DryRunReport } from '../../../shared/domain/dry-run.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import type { DryRunRequest } from '../../../shared/ipc/channels/dry-run-channels.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { ErrorBox } from '../error-box.js';
import { DryRunReportView } from './dry-run-report.js';

/**
 * "Dry run in sandbox" for a server that has not been trusted yet (a bundle, registry or link
 * preview, an import candidate): the host starts it once with no network, no secrets and no
 * roots, and this shows what it offered and what it tried. The report belongs to the request
 * it answered: a changed request (another option, other values) clears it.
 */
export function DryRunPanel({
  request,
  disabled = false,
  testId = 'dry-run',
}: {
  request: DryRunRequest | null;
  disabled?: boolean;
  testId?: string;
}) {
  const host = useHost();
  const key = request ? JSON.stringify(request) : '';
  const [answer, setAnswer] = useState<{ key: string; report: DryRunReport } | null>(null);
  const [failure, setFailure] = useState<{ key: string; error: HostError } | null>(null);
  const [running, setRunning] = useState<string | null>(null);
  const run = () => {
    if (!request) return;
    setRunning(key);
    setFailure(null);
    host.invoke('dryRun.run', request).then(
      (report) => {
        setAnswer({ key, report });
        setRunning(null);
      },
      (error: unknown) => {
        setFailure({ key, error: asHostError(error) });
        setRunning(null);
      },
    );
  };
  const report = answer?.key === key ? answer.report : null;
  return (
    <section className="dry-run" aria-label="Dry run" data-testid={testId}>
      <div className="dry-run-head">
        <button
          type="button"
          className="small"
          onClick={run}
          disabled={disabled || !request || running !== null}
          data-testid={`${testId}-start`}
        >
          <FlaskConical size={14} aria-hidden="true" className="icon" />{' '}
          {running ? 'Running in the sandbox…' : report ? 'Dry run again' : 'Dry run in sandbox'}
        </button>
        {!report && !running && (
          <span className="muted small-print">
            Starts it once with no network, no secrets and no folders of yours, and shows what it offers and
            tries.
          </span>
        )}
      </div>
      {running && (
        <p className="muted" role="status">
          Starting it in the sandbox…
        </p>
      )}
      {failure?.key === key && <ErrorBox error={failure.error} testId={`${testId}-error`} />}
      {report && <DryRunReportView report={report} testId={`${testId}-report`} />}
    </section>
  );
}
