import type { Details, RenderProcessGoneDetails } from 'electron';
import type { HostLog } from '../../host/diagnostics/host-log.js';

/** The slice of Electron's `app` whose process events are logged (a fake in tests). */
export interface ProcessGoneApp {
  on(
    event: 'render-process-gone',
    listener: (event: unknown, contents: { getURL(): string }, details: RenderProcessGoneDetails) => void,
  ): unknown;
  on(event: 'child-process-gone', listener: (event: unknown, details: Details) => void): unknown;
}

/**
 * Log renderers and child processes (GPU, utility, network service) that went away, with why
 * and their exit code: the crash dump says where, this says when and which. A clean exit of a
 * child process is only noted. Page URLs are reduced to their view, never their query.
 */
export function logGoneProcesses(app: ProcessGoneApp, log: HostLog): void {
  app.on('render-process-gone', (_event, contents, details) => {
    log.error(
      'process',
      `renderer gone (${details.reason}, exit code ${details.exitCode}) showing ${viewOf(contents)}`,
    );
  });
  app.on('child-process-gone', (_event, details) => {
    const name = details.name ?? details.serviceName ?? details.type;
    const text = `${details.type} process "${name}" gone (${details.reason}, exit code ${details.exitCode})`;
    if (details.reason === 'clean-exit') log.info('process', text);
    else log.error('process', text);
  });
}

function viewOf(contents: { getURL(): string }): string {
  try {
    const url = new URL(contents.getURL());
    const view = url.searchParams.get('view');
    return `${url.protocol}//…/${url.pathname.split('/').pop() ?? ''}${view ? ` (${view})` : ''}`;
  } catch {
    return 'an unknown page';
  }
}
