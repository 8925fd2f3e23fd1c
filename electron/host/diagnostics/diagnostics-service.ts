import type { ServerSummary } from '../../../shared/domain/server-state.js';
import type { RendererErrorReport } from '../../../shared/ipc/channels/diagnostics-channels.js';
import type { HostInfo } from '../../../shared/ipc/contract.js';
import type { Disposable } from '../util/disposable.js';
import { RateWindow } from '../util/rate-window.js';
import { diagnosticsReport } from './diagnostics-report.js';
import type { HostLog } from './host-log.js';

/** What the diagnostics service reads: the host's own summaries and its log. */
export interface DiagnosticsDeps {
  log: HostLog;
  info: () => HostInfo;
  servers: () => readonly ServerSummary[];
  dataDir: string | undefined;
}

/** Renderer errors logged per second at most: an error loop must not fill the log. */
const RENDERER_ERRORS_PER_SECOND = 5;

/** "Copy diagnostics" and renderer error reports, the same in the desktop app and browser mode. */
export class DiagnosticsService implements Disposable {
  private readonly rate: RateWindow;

  constructor(private readonly deps: DiagnosticsDeps) {
    this.rate = new RateWindow(RENDERER_ERRORS_PER_SECOND, (count) =>
      deps.log.warn('renderer', `${count} more renderer errors in one second were not logged`),
    );
  }

  /** The app's log (the desktop shell adds its own hooks to it). */
  get log(): HostLog {
    return this.deps.log;
  }

  /** The diagnostics text for a bug report (see diagnosticsReport). */
  report(): string {
    return diagnosticsReport({
      info: this.deps.info(),
      dataDir: this.deps.dataDir,
      servers: this.deps.servers(),
    });
  }

  /** Log a renderer's uncaught error, rate-limited. */
  rendererError(r: RendererErrorReport): void {
    if (!this.rate.take()) return;
    const where = r.where ? ` at ${r.where}` : '';
    const what = `${r.kind === 'error' ? 'uncaught error' : 'unhandled rejection'} in ${r.view ?? 'a window'}${where}`;
    this.deps.log.error('renderer', what, r.stack ?? r.message);
  }

  /** Stop the rate window's summary timer. */
  dispose(): void {
    this.rate.dispose();
  }
}
