import { isSpecType, type JSONRPCMessage, type PriorDiscovery } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { killSnapshot, snapshotTree } from './process-tree.js';

/** What installSdkProbePatch found: the SDK shape it relies on, or that the shape changed. */
export type ProbePatchResult = 'installed' | 'already-installed' | 'sdk-shape-changed';

/** What a probe sibling answered after its probe had run out of time: a verdict, or "probe again". */
export type LateVerdict = PriorDiscovery | 'reprobe';

/** One launch's era probe, as the sibling's disposal needs to know it. */
export interface ProbeWatch {
  /** performance.now() when the connect (and so the sibling) started. */
  began: number;
  /** The probe's cap: a sibling disposed this long after `began` or later ran out of time. */
  capMs: number;
  /** The sibling answered (or died) after the connect had moved on. */
  onLate?: (verdict: LateVerdict) => void;
  /** Set when the sibling is disposed: whether its probe was answered within the cap. */
  answered?: boolean;
}

/** How long a sibling whose probe timed out may still answer before it is reaped. */
const LATE_ANSWER_MS = 15_000;
/**
 * Siblings listening at once. A storm of parallel starts times out many probes together, and
 * every sibling left running would finish its start-up beside the session processes, doubling
 * the CPU they compete for: beyond this many, a timed-out sibling is reaped at once and its
 * server gets the tentative verdict (era-cache.ts).
 */
const MAX_LISTENING = 2;
/** The SDK's probe request ids (`server-discover-probe-N`, strings so they never meet Protocol's numbers). */
const PROBE_ID = /^server-discover-probe-\d+$/;
/** JSON-RPC error of a modern server that does not speak the version asked for. */
const UNSUPPORTED_VERSION = -32022;

/**
 * Watches by the launch's `env` object: the SDK clones the sibling from the session transport's
 * own parameters, so the sibling carries the very same object (and the same tree marker).
 */
const watches = new WeakMap<object, ProbeWatch>();
/** Siblings not reaped yet (dying, or listening for a late answer): a shutdown ends and awaits them. */
const siblings = new Map<StdioClientTransport, () => Promise<void>>();
/** How many of them are listening for a late answer. */
let listening = 0;
const reaping = new WeakSet<object>();

/** Watch the era probe of the launch whose environment is `env`; returns the unwatch. */
export function watchProbe(env: object, watch: ProbeWatch): () => void {
  watches.set(env, watch);
  return () => watches.delete(env);
}

/**
 * The stdio era probe runs on a throwaway sibling process that the SDK reaps with its internal
 * `_dispose`, which signals only the direct child: a wrapper's children (npx -> node, a
 * server's helper) would be orphaned on every first connect. Reap the whole tree instead.
 * And a probe that ran out of time (a server slow to start, a loaded machine) is not thrown
 * away: its sibling keeps listening off the connect's path for up to LATE_ANSWER_MS, so the
 * late answer still becomes a cached verdict and the next start needs no probe. `_dispose`
 * stays an own method of the prototype, which the SDK checks before choosing the sibling
 * probe. Called once at start-up by the composition root (never at import); idempotent. If a
 * later SDK drops the method this is a no-op and says so (tests/unit/sdk-probe-patch.test.ts).
 */
export function installSdkProbePatch(): ProbePatchResult {
  const proto = StdioClientTransport.prototype as unknown as {
    _dispose?: (this: StdioClientTransport) => Promise<void>;
  };
  const original = proto._dispose;
  if (typeof original !== 'function' || !Object.prototype.hasOwnProperty.call(proto, '_dispose'))
    return 'sdk-shape-changed';
  if (reaping.has(original)) return 'already-installed';
  const reap = async (transport: StdioClientTransport): Promise<void> => {
    const pid = transport.pid;
    const tree = pid ? await snapshotTree(pid).catch(() => undefined) : undefined;
    // Tree first (taskkill /T needs the root alive on Windows), then the SDK's own cleanup.
    if (tree) await killSnapshot(tree).catch(() => undefined);
    await original.call(transport);
  };
  // The SDK awaits this before it spawns the session process: the reap runs beside that spawn
  // instead of in front of it (a sibling's SIGTERM, its exit and the /proc reads took up to
  // seconds on a busy machine). A shutdown still waits for it (reapLingeringProbes).
  const patched = function (this: StdioClientTransport): Promise<void> {
    const env = (this as unknown as { _serverParams?: { env?: object } })._serverParams?.env;
    const watch = env ? watches.get(env) : undefined;
    // Disposed before the cap ran out, the probe was answered; at or past it, it timed out.
    if (watch) watch.answered = performance.now() - watch.began < watch.capMs;
    if (watch && !watch.answered && this.pid && listening < MAX_LISTENING) listenLate(this, watch, reap);
    else track(this, reap(this));
    return Promise.resolve();
  };
  reaping.add(patched);
  proto._dispose = patched;
  return 'installed';
}

/** Keep a sibling's reap in view until it is done, so a shutdown can wait for it. */
function track(sibling: StdioClientTransport, reaped: Promise<void>): void {
  const done = reaped.catch(() => undefined);
  siblings.set(sibling, () => done);
  void done.then(() => siblings.delete(sibling));
}

/** Reap every probe sibling still alive (the host is shutting down); resolves once they are gone. */
export async function reapLingeringProbes(): Promise<void> {
  await Promise.all([...siblings.values()].map((stop) => stop()));
}

/**
 * Keep a timed-out sibling alive a while to hear its answer: an error (or exiting on the unknown
 * request) is a 2025 server, a DiscoverResult a 2026-07-28 one. Then reap it.
 */
function listenLate(
  sibling: StdioClientTransport,
  watch: ProbeWatch,
  reap: (sibling: StdioClientTransport) => Promise<void>,
): void {
  let done: Promise<void> | undefined;
  const finish = (verdict?: LateVerdict): Promise<void> => {
    if (done) return done;
    clearTimeout(timer);
    listening--;
    sibling.onmessage = undefined;
    if (verdict) watch.onLate?.(verdict);
    done = reap(sibling).catch(() => undefined);
    void done.then(() => siblings.delete(sibling));
    return done;
  };
  listening++;
  const timer = setTimeout(() => void finish(), LATE_ANSWER_MS);
  timer.unref();
  siblings.set(sibling, () => finish());
  sibling.onmessage = (message) => {
    const verdict = lateVerdict(message);
    if (verdict) void finish(verdict);
  };
  const child = (sibling as unknown as { _process?: NodeJS.EventEmitter })._process;
  // Exiting on its own at an unknown pre-initialize request is how some 2025 servers answer
  // (the SDK reads it so too); being killed (by us, at a stop) says nothing.
  child?.once('exit', (code: number | null) => void finish(code === null ? undefined : { kind: 'legacy' }));
}

/** The verdict a late reply to the probe carries, if the message is that reply. */
function lateVerdict(message: JSONRPCMessage): LateVerdict | undefined {
  if (!('id' in message) || typeof message.id !== 'string' || !PROBE_ID.test(message.id)) return undefined;
  if ('error' in message) return message.error.code === UNSUPPORTED_VERSION ? 'reprobe' : { kind: 'legacy' };
  if ('result' in message && isSpecType.DiscoverResult(message.result))
    return { kind: 'modern', discover: message.result };
  return 'reprobe';
}
