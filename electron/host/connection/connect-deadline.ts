import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { HostFailure } from '../util/errors.js';

/** A duration as a person reads it: "10 s", "1.5 s", "250 ms". */
export function describeMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** The one error every unanswered step becomes, naming the step when it is known. */
export function noResponse(ms: number, step?: string): HostFailure {
  return new HostFailure('timeout', `no response within ${describeMs(ms)}${step ? ` (${step})` : ''}`);
}

/** True for the SDK's request timeout (which says only "Request timed out"). */
export function isRequestTimeout(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
}

/** A request timeout, or an era probe that timed out (the SDK words that one as a negotiation failure). */
export function isTimeoutError(error: unknown): boolean {
  if (isRequestTimeout(error)) return true;
  return (
    error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed &&
    /timed out/i.test(error.message)
  );
}

/**
 * One budget for a whole connect: initialize, the legacy SSE fallback and any OAuth discovery
 * on the way share the configured timeout, and the era probe (a step of its own, capped apart)
 * may add its cap on top. Without it a silent server cost the SDK's 60 s default per step,
 * and a legacy SSE stream that never sent its first event hung forever. An outer signal (the
 * connection stopping) ends it early as a cancel.
 */
export class ConnectDeadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly startedAt = Date.now();
  private readonly onOuterAbort = () => this.controller.abort(CANCELLED);

  constructor(
    readonly budgetMs: number,
    private readonly outer?: AbortSignal,
    /** The era probe's cap, when this connect probes. */
    readonly probeMs = 0,
  ) {
    this.timer = setTimeout(() => this.controller.abort(EXPIRED), budgetMs + probeMs);
    if (outer?.aborted) this.onOuterAbort();
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
  }

  /** Aborts when the budget is spent or the outer signal fires. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** What is left of the budget (at least 1 ms, so it can still be handed to a timer). */
  remaining(): number {
    return Math.max(1, this.budgetMs + this.probeMs - (Date.now() - this.startedAt));
  }

  /**
   * Await one connect attempt; when the budget runs out (or the outer signal fires) first,
   * `abandon` unwinds it (closes the client, which closes sockets and reaps processes) and
   * the failure names the step it was waiting on.
   */
  async race<T>(work: Promise<T>, abandon: () => Promise<void>, step: () => string | undefined): Promise<T> {
    const signal = this.controller.signal;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new Error('connect deadline'));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([work, aborted]);
    } catch (error) {
      if (!signal.aborted) throw error;
      // The abandoned attempt may still reject (or, a silent SSE start, never settle).
      work.catch(() => undefined);
      const failure = this.failure(step());
      await abandon().catch(() => undefined);
      throw failure;
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  /** Stop the timer and let go of the outer signal (every connect, success or not). */
  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }

  private failure(step: string | undefined): HostFailure {
    if (this.controller.signal.reason === CANCELLED) return new HostFailure('cancelled', 'connect cancelled');
    return noResponse(this.budgetMs, step);
  }
}

// Errors, not symbols: the reason reaches libraries (eventsource) that print it.
const EXPIRED = new Error('connect budget spent');
const CANCELLED = new Error('connect cancelled');

/**
 * The first lists of a connect, each bounded by the timeout: a server that answers initialize
 * and then never answers tools/list fails the connect, naming the list, and so does one that
 * exits (or closes its connection) while a list is asked. Other list errors stay notes in the
 * log (a server with broken prompts still has tools).
 */
export class ListBudget {
  private timedOut?: string;
  private closedDuring?: string;

  constructor(readonly budgetMs: number) {}

  /** Hear of a failed list; a timeout or a closed connection is remembered for check(). */
  failed(what: string, error: unknown): void {
    if (isRequestTimeout(error)) this.timedOut ??= what;
    else if (isConnectionClosed(error)) this.closedDuring ??= what;
  }

  /** Throw what ended the first list that could not finish (out of time, or the server gone), if any. */
  check(): void {
    if (this.closedDuring)
      throw new HostFailure(
        'connection_closed',
        `the server exited or closed its connection during ${this.closedDuring}`,
      );
    if (this.timedOut) throw noResponse(this.budgetMs, `waiting for the answer to ${this.timedOut}`);
  }
}

/** True for the SDK's "the connection closed" (a request outstanding when the server went away). */
function isConnectionClosed(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed;
}
