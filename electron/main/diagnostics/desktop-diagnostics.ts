import { HostLog, logProcessErrors } from '../../host/diagnostics/host-log.js';
import { startCrashReports, type CrashDumpApp } from './crash-reports.js';
import { logGoneProcesses, type ProcessGoneApp } from './process-hooks.js';

/** The slice of Electron's `app` the diagnostics need (a fake in tests). */
export interface DiagnosticsApp extends CrashDumpApp, ProcessGoneApp {
  getPath(name: 'userData'): string;
  getVersion(): string;
}

/**
 * Local crash and error reports for the desktop app, started before `ready`: the rotating log
 * in `<dataDir>/logs` (uncaught exceptions and unhandled rejections of main, gone renderers
 * and child processes) and Crashpad's minidumps in `<dataDir>/crashes`, never uploaded.
 * Returns the log; the host takes its Redactor, so entries are scrubbed of every secret it knows.
 */
export function startDesktopDiagnostics(app: DiagnosticsApp, proc: NodeJS.Process = process): HostLog {
  const dataDir = app.getPath('userData');
  const log = HostLog.inDataDir(dataDir, app.getVersion());
  try {
    startCrashReports(app, dataDir);
  } catch (error) {
    log.error('main', 'the crash reporter did not start', error);
  }
  logProcessErrors(proc, log, 'main', { rejections: true });
  logGoneProcesses(app, log);
  return log;
}
