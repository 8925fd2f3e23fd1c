import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestOrigin } from '../../../shared/domain/pending.js';
import { Cancellation } from '../util/errors.js';

/** A server request's cause: the tool call, and a signal that aborts when that call is stopped or fails. */
/** How the SDK words the progress it reports before each input_required round (its only per-call hook there). */
export const INPUT_ROUND_PROGRESS = /^Fulfilling input required by /;

export interface Attribution {
  origin: RequestOrigin;
  signal: AbortSignal;
}

interface LiveCall {
  serverId: string;
  origin: RequestOrigin;
  /** Aborts every server request this call caused. */
  requests: AbortController;
}

/**
 * Which tool call a server request belongs to, best evidence first:
 * 1. A 2026-07-28 `input_required` round: the SDK runs it from its response funnel (not the
 *    caller's async chain), but it first reports the round through the call's own `onprogress`
 *    and then invokes our handler synchronously; `enterRound` marks the call for exactly that
 *    synchronous stretch, so the round is attributed exactly even with several calls in flight.
 * 2. The async context of the call (a request read from a Streamable HTTP POST's own response
 *    stream runs inside the call's chain), trusted only while that call runs.
 * 3. A 2025 request pushed over stdio (or a standalone SSE stream) carries no tie to any call on
 *    the wire: it goes to the server's most recent call still in flight — exact when there is
 *    one, a best guess when there are several — and to nothing when none is.
 */
export class CallOrigins {
  private readonly context = new AsyncLocalStorage<LiveCall>();
  /** Calls in flight by callId; Map order is start order, so the last match is the newest. */
  private readonly live = new Map<string, LiveCall>();
  /** The call whose input_required round the SDK is dispatching right now (see enterRound). */
  private entering: LiveCall | undefined;

  /** Run one tool call with its origin in scope until it settles. */
  async run<T>(serverId: string, origin: RequestOrigin, call: () => Promise<T>): Promise<T> {
    const entry: LiveCall = { serverId, origin, requests: new AbortController() };
    this.live.set(origin.callId, entry);
    try {
      return await this.context.run(entry, call);
    } finally {
      if (this.live.get(origin.callId) === entry) this.live.delete(origin.callId);
    }
  }

  /** The SDK is about to answer an input_required round of this call: attribute what it dispatches now. */
  enterRound(callId: string): void {
    const c = this.live.get(callId);
    if (!c) return;
    this.entering = c;
    // The handlers run synchronously after the progress report; nothing later may inherit the mark.
    queueMicrotask(() => {
      if (this.entering === c) this.entering = undefined;
    });
  }

  /** The call a request arriving now from `serverId` belongs to, if any. */
  attribute(serverId: string): Attribution | undefined {
    const round = this.entering;
    if (round && round.serverId === serverId && this.live.get(round.origin.callId) === round)
      return view(round);
    const here = this.context.getStore();
    // The context can outlive its call (a stream opened inside it): trust it only while the call runs.
    if (here && here.serverId === serverId && this.live.get(here.origin.callId) === here) return view(here);
    let newest: LiveCall | undefined;
    for (const c of this.live.values()) if (c.serverId === serverId) newest = c;
    return newest && view(newest);
  }

  /** Settle every server request the call caused: it was stopped, or it ended without a result. */
  settle(callId: string, how: 'stopped' | 'failed'): void {
    const c = this.live.get(callId);
    if (!c || c.requests.signal.aborted) return;
    const why =
      how === 'stopped'
        ? `the tool call "${c.origin.toolName}" that made this request was stopped`
        : `the tool call "${c.origin.toolName}" that made this request ended without a result`;
    c.requests.abort(new Cancellation(why));
  }
}

function view(c: LiveCall): Attribution {
  return { origin: { ...c.origin }, signal: c.requests.signal };
}
