import { crashReporter } from 'electron';
import { join } from 'node:path';

/** The slice of Electron's `app` the crash reporter needs (a fake in tests). */
export interface CrashDumpApp {
  setPath(name: 'crashDumps', path: string): void;
}

/** Where minidumps go inside a data folder. */
export function crashDumpsDirOf(dataDir: string): string {
  return join(dataDir, 'crashes');
}

/**
 * Start Electron's crash reporter, local only: minidumps of crashed processes (main, renderers,
 * GPU, utilities) are written to `<dataDir>/crashes` and never uploaded anywhere; a person
 * attaches one to a bug report if they choose. Call early (before `ready`, after the data
 * folder is final), since only processes started afterwards are covered.
 */
export function startCrashReports(app: CrashDumpApp, dataDir: string): string {
  const dir = crashDumpsDirOf(dataDir);
  // Must precede start(): Crashpad reads the dumps folder once, when it starts.
  app.setPath('crashDumps', dir);
  crashReporter.start({
    productName: 'MCP Desk',
    uploadToServer: false,
    compress: true,
  });
  return dir;
}
