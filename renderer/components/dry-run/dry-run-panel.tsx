import { FlaskConical } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { DryRunReport } from '../../../shared/domain/dry-run.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import type { DryRunRequest } from '../../../shared/ipc/channels/dry-run-channels.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { ErrorBox } from '../error-box.js';
import { DryRunReportView } from './dry-run-report.js';

/** How long values must stay unchanged before a dry run starts by itself. */
const TYPING_PAUSE_MS = 600;

/**
 * The dry run of a server that has not been trusted yet (a bundle, registry or link preview, an
 * import candidate, pasted JSON): the host starts it once with no network, no secrets and no
 * roots, and this shows what it offered and what it tried. With `auto` it starts by itself for
 * the first request the preview holds (the "first runs in the sandbox"); Skip lets the
 * person go on without waiting for a slow server. The report belongs to the request it
 * answered: a changed request (another option, other values) clears it. `onRunning` tells the
 * preview while a run is under way, so it can hold its accept button until the report is shown.
 */
export function DryRunPanel({
  request,
  disabled = false,
  auto = true,
  waitForTyping = false,
  onRunning,
  testId = 'dry-run',
}: {
  request: DryRunRequest | null;
  disabled?: boolean;
  auto?: boolean;
  /** The request follows text being typed: even the first one waits for a pause. */
  waitForTyping?: boolean;
  onRunning?: (running: boolean) => void;
  testId?: string;
}) {
  const host = useHost();
  const key = request ? JSON.stringify(request) : '';
  const [answer, setAnswer] = useState<{ key: string; report: DryRunReport } | null>(null);
  const [failure, setFailure] = useState<{ key: string; error: HostError } | null>(null);
  const [running, setRunning] = useState<string | null>(null);
  const [skipped, setSkipped] = useState(false);
  // Which run an answer belongs to: a skipped or superseded run's late answer is dropped.
  const runId = useRef(0);
  // Whether it ran (or was skipped): it starts by itself only once.
  const [started, setStarted] = useState(false);
  const run = () => {
    if (!request) return;
    const id = ++runId.current;
    setStarted(true);
    setRunning(key);
    setSkipped(false);
    setFailure(null);
    host.invoke('dryRun.run', request).then(
      (report) => {
        if (id !== runId.current) return;
        setAnswer({ key, report });
        setRunning(null);
      },
      (error: unknown) => {
        if (id !== runId.current) return;
        setFailure({ key, error: asHostError(error) });
        setRunning(null);
      },
    );
  };
  const skip = () => {
    setStarted(true);
    runId.current++;
    setRunning(null);
    setSkipped(true);
  };
  // Start by itself once, for the first request the preview can name. One there from the start
  // runs at once; one that appears while the person fills in values waits for a pause in typing.
  // Later changes are the person's edits: "Dry run again" reruns them.
  const [firstKey] = useState(waitForTyping ? null : key);
  useEffect(() => {
    if (!auto || started || !request || disabled) return;
    const timer = setTimeout(run, key === firstKey ? 0 : TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on the first runnable request
  }, [auto, started, key, disabled]);
  const isRunning = running !== null;
  // About to start by itself (waiting for a pause in typing) holds the preview as a run does.
  const waiting = auto && !started && request !== null && !disabled;
  const held = isRunning || waiting;
  useEffect(() => {
    onRunning?.(held);
  }, [held, onRunning]);
  useEffect(() => () => onRunning?.(false), [onRunning]);
  const report = answer?.key === key ? answer.report : null;
  return (
    <section className="dry-run" aria-label="Dry run" data-testid={testId}>
      <div className="dry-run-head">
        <button
          type="button"
          className="small"
          onClick={run}
          disabled={disabled || !request || isRunning}
          data-testid={`${testId}-start`}
        >
          <FlaskConical size={14} aria-hidden="true" className="icon" />{' '}
          {running ? 'Running in the sandbox…' : report ? 'Dry run again' : 'Dry run in sandbox'}
        </button>
        {held && (
          <button type="button" className="small" onClick={skip} data-testid={`${testId}-skip`}>
            Skip
          </button>
        )}
        {!report && !running && !skipped && (
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
      {skipped && !report && (
        <p className="notice" data-testid={`${testId}-skipped`}>
          Dry run skipped: what this server offers and tries has not been checked.
        </p>
      )}
      {failure?.key === key && <ErrorBox error={failure.error} testId={`${testId}-error`} />}
      {report && <DryRunReportView report={report} testId={`${testId}-report`} />}
    </section>
  );
}
