import type { HostApi } from '../../shared/ipc/contract.js';

/** The contract caps what a report may carry; longer text is cut here rather than refused there. */
const MAX_MESSAGE = 2_000;
const MAX_STACK = 8_000;

/**
 * Forward this window's uncaught errors and unhandled rejections to the host, which logs them
 * (with the app version and time, secrets scrubbed) in the app's log file. Reporting never
 * throws and never reports its own failure, so it cannot loop.
 */
export function forwardWindowErrors(api: HostApi, view: string): void {
  const send = (kind: 'error' | 'unhandledrejection', reason: unknown, where?: string) => {
    const error = reason instanceof Error ? reason : undefined;
    const message = error ? `${error.name}: ${error.message}` : String(reason);
    void api
      .invoke('diagnostics.reportError', {
        kind,
        message: message.slice(0, MAX_MESSAGE),
        ...(error?.stack ? { stack: error.stack.slice(0, MAX_STACK) } : {}),
        ...(where ? { where: where.slice(0, 500) } : {}),
        view,
      })
      .catch(() => undefined);
  };
  window.addEventListener('error', (e: ErrorEvent) =>
    send('error', e.error ?? e.message, e.filename ? `${e.filename}:${e.lineno}:${e.colno}` : undefined),
  );
  window.addEventListener('unhandledrejection', (e: PromiseRejectionEvent) =>
    send('unhandledrejection', e.reason),
  );
}
