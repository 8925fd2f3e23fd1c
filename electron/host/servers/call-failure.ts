import { HostFailure, toHostError } from '../util/errors.js';

/** What a failed call's explanation needs to know. */
export interface FailedCall {
  serverId: string;
  tool: string;
  timeoutMs: number;
  /** The server's last stderr line (read after the exit has been noticed). */
  lastStderr: () => string | undefined;
}

/**
 * Turn a failed tools/call into an error a person can act on: it names the server and the
 * tool and says what the server did (exited mid-call, quoting its last stderr line; did not
 * answer in time; answered with an error). The code and details stay those of the original.
 */
export function explainCallFailure(error: unknown, call: FailedCall): unknown {
  const e = toHostError(error);
  const who = `server "${call.serverId}"`;
  if (e.code === 'timeout')
    return withCause(
      new HostFailure(
        'timeout',
        `${who} did not answer the call to tool "${call.tool}" within ${seconds(call.timeoutMs)}`,
        e.details,
      ),
      error,
    );
  if (e.code === 'connection_closed') {
    // The child's 'close' comes after its stderr ended, so the last line is already in.
    const last = call.lastStderr();
    const said = last
      ? `; its last stderr line: ${JSON.stringify(last.slice(0, 300))}`
      : ' (it wrote nothing to stderr)';
    return withCause(
      new HostFailure(
        'connection_closed',
        `${who} exited or closed its connection during the call to tool "${call.tool}"${said}`,
        e.details,
      ),
      error,
    );
  }
  if (e.message.includes(`"${call.serverId}"`)) return error;
  return withCause(new HostFailure(e.code, `${who}, tool "${call.tool}": ${e.message}`, e.details), error);
}

/** Keep the original underneath: sign-in checks walk the cause chain for a 401. */
function withCause(failure: HostFailure, cause: unknown): HostFailure {
  failure.cause = cause;
  return failure;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
