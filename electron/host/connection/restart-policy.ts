import type { HostError } from '../../../shared/domain/server-state.js';

/** How a crashed server is brought back; tests shorten every figure. */
export interface BackoffOptions {
  /** The first delay; each further crash or failed attempt doubles it. */
  baseMs: number;
  /** No delay is longer than this. */
  maxMs: number;
  /** Failed connects in a row before giving up (crashes of a server that connects never count). */
  maxAttempts: number;
  /** Up this long, a server is stable again: its next crash starts over at `baseMs`. */
  stableMs?: number;
}

/** One reconnect the policy decided on, and why (kept for the diagnostics and metrics). */
export interface RestartCause {
  at: number;
  code: string;
  message: string;
  /** The wait before the attempt; absent when the policy gave up. */
  delayMs?: number;
}

/** What to do after a crash or a failed attempt. */
export type RestartDecision =
  { retry: true; delayMs: number; attempt: number } | { retry: false; attempts: number };

/** Where the policy stands, for diagnostics. */
export interface RestartState {
  /** Crashes since the server was last up for a stable period. */
  crashes: number;
  /** Failed connects in a row. */
  failures: number;
  /** The most recent decisions, oldest first. */
  recent: RestartCause[];
}

/** The desktop default: half a second, doubling to thirty, six failed connects in a row, stable after a minute. */
export const DEFAULT_BACKOFF: BackoffOptions = {
  baseMs: 500,
  maxMs: 30_000,
  maxAttempts: 6,
  stableMs: 60_000,
};
const DEFAULT_STABLE_MS = 60_000;
const KEEP_CAUSES = 20;

/**
 * Exponential, capped, jittered backoff for a server that went away. Two things escalate the
 * delay: failed connects in a row (which end in giving up, since retrying a broken command
 * helps nobody) and crashes of a server that does connect but keeps dying (which never give
 * up, but stop hammering it: a crash loop backs off to `maxMs`). Staying up `stableMs` wipes
 * the crash count, so a server that crashes once a day always comes straight back.
 */
export class RestartPolicy {
  private failures = 0;
  private crashes = 0;
  private upSince?: number;
  private readonly causes: RestartCause[] = [];

  constructor(
    private readonly opts: BackoffOptions = DEFAULT_BACKOFF,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {}

  /** A person (re)started the server: nothing before counts. */
  reset(): void {
    this.failures = 0;
    this.crashes = 0;
    this.upSince = undefined;
  }

  /** A connect succeeded. */
  connected(): void {
    this.failures = 0;
    this.upSince = this.now();
  }

  /** A connected server went away. */
  afterCrash(cause: HostError): RestartDecision {
    const stable = this.opts.stableMs ?? DEFAULT_STABLE_MS;
    if (this.upSince !== undefined && this.now() - this.upSince >= stable) this.crashes = 0;
    this.upSince = undefined;
    this.crashes++;
    return this.decide(cause);
  }

  /** A reconnect attempt failed. */
  afterFailedAttempt(cause: HostError): RestartDecision {
    this.failures++;
    return this.decide(cause);
  }

  /** Where it stands (a copy). */
  state(): RestartState {
    return { crashes: this.crashes, failures: this.failures, recent: [...this.causes] };
  }

  private decide(cause: HostError): RestartDecision {
    const at = this.now();
    if (this.failures >= this.opts.maxAttempts) {
      this.remember({ at, code: cause.code, message: cause.message });
      return { retry: false, attempts: this.failures };
    }
    const exponent = Math.max(0, this.failures + this.crashes - 1);
    const delayMs = Math.min(this.opts.maxMs, this.opts.baseMs * 2 ** exponent) * (0.8 + this.random() * 0.4);
    this.remember({ at, code: cause.code, message: cause.message, delayMs: Math.round(delayMs) });
    return { retry: true, delayMs, attempt: this.failures + 1 };
  }

  private remember(cause: RestartCause): void {
    this.causes.push(cause);
    if (this.causes.length > KEEP_CAUSES) this.causes.shift();
  }
}
