import type { DryRunAttempts, DryRunReport } from '../../../shared/domain/dry-run.js';
import { WarningsBadge, WarningsPanel } from '../tool-warnings/tool-warnings.js';

/** How the dry run ran, in one sentence a person can act on. */
function sandboxLine(report: DryRunReport): string {
  const s = report.sandbox;
  if (s.kind === 'ran')
    return `Ran in the ${s.tool} sandbox: no network, no secrets, no folders of yours, read-only but its own temporary folder.`;
  if (s.kind === 'unavailable')
    return `Not started: there is no sandbox here (${s.reason}). Only the checks below, made without running it, apply.`;
  return `Not started: ${s.reason}.`;
}

/**
 * A dry run's report: the sandbox verdict, the exact command with every argument (never
 * truncated), the static notes, what it listed with the integrity warnings, and every path and
 * connection it tried that the sandbox refused.
 */
export function DryRunReportView({ report, testId }: { report: DryRunReport; testId: string }) {
  return (
    <div
      className="dry-run-report"
      data-testid={testId}
      data-sandbox={report.sandbox.kind}
      data-outcome={report.outcome.kind}
    >
      <p className={report.sandbox.kind === 'ran' ? 'muted' : 'notice'} data-testid={`${testId}-sandbox`}>
        {sandboxLine(report)}
      </p>
      <h4>Command</h4>
      <ol className="dry-run-command mono" data-testid={`${testId}-command`}>
        <li>{report.command}</li>
        {report.args.map((a, i) => (
          <li key={i}>{a}</li>
        ))}
      </ol>
      {report.envNames.length > 0 && (
        <p className="muted small-print">
          Environment it sets (values not shown): {report.envNames.join(', ')}
        </p>
      )}
      {report.notes.length > 0 && (
        <ul className="dry-run-notes" data-testid={`${testId}-notes`}>
          {report.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {report.outcome.kind === 'failed' && (
        <pre className="error-box mono" role="alert" data-testid={`${testId}-failed`}>
          It did not start and list its tools: {report.outcome.message}
        </pre>
      )}
      {report.outcome.kind === 'listed' && (
        <>
          <h4>Offers</h4>
          <ul className="dry-run-tools" data-testid={`${testId}-tools`}>
            {report.tools.map((t) => (
              <li key={t.name} data-testid={`${testId}-tool`} data-name={t.name}>
                <span className="mono">{t.name}</span> <WarningsBadge warnings={t.warnings} />
                {t.description && <span className="muted"> — {t.description}</span>}
                <WarningsPanel
                  warnings={t.warnings}
                  open={false}
                  intro="Found in what the server says about this tool before it is trusted."
                  testId={`${testId}-tool-warnings`}
                />
              </li>
            ))}
            {report.tools.length === 0 && <li className="muted">no tools</li>}
          </ul>
          {report.resources.length + report.prompts.length > 0 && (
            <p className="muted small-print">
              {report.resources.length} resource(s)
              {report.resources.length ? `: ${report.resources.map((r) => r.name).join(', ')}` : ''};{' '}
              {report.prompts.length} prompt(s)
              {report.prompts.length ? `: ${report.prompts.map((p) => p.name).join(', ')}` : ''}
            </p>
          )}
        </>
      )}
      <Attempts attempts={report.attempts} testId={`${testId}-attempts`} />
    </div>
  );
}

function Attempts({ attempts, testId }: { attempts: DryRunAttempts; testId: string }) {
  if (!attempts.recorded)
    return (
      <p className="muted small-print" data-testid={testId}>
        What it tried was not recorded: {attempts.reason}
      </p>
    );
  const nothing = attempts.paths.length === 0 && attempts.connections.length === 0;
  return (
    <div data-testid={testId}>
      <h4>Tried and refused</h4>
      {nothing && (
        <p className="muted">
          Nothing: it touched no hidden path, wrote nothing outside its temporary folder and made no
          connection.
        </p>
      )}
      {attempts.paths.length > 0 && (
        <ul className="dry-run-attempts">
          {attempts.paths.map((p) => (
            <li
              key={`${p.op}:${p.path}`}
              data-testid={`${testId}-path`}
              data-op={p.op}
              data-denied={p.denied}
            >
              {p.op} <span className="mono">{p.path}</span>{' '}
              <span className="badge warn">{p.denied === 'hidden' ? 'hidden from it' : 'read-only'}</span>
            </li>
          ))}
        </ul>
      )}
      {attempts.connections.length > 0 && (
        <ul className="dry-run-attempts">
          {attempts.connections.map((c) => (
            <li key={c.address} data-testid={`${testId}-connection`} data-address={c.address}>
              connect <span className="mono">{c.address}</span> <span className="badge warn">no network</span>
            </li>
          ))}
        </ul>
      )}
      {attempts.truncated && <p className="muted small-print">It tried more than is listed here.</p>}
    </div>
  );
}
