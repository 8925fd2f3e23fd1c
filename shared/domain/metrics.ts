import { z } from 'zod';

/**
 * What the host counts about its servers and models (issue 11 §5). One schema serves the
 * renderer (Servers › Info, Activity), the CLI (`mcp-desk metrics --json`), and the file the
 * host persists, so `mcp-desk metrics` in a later process reads what earlier ones did.
 */

const count = z.number().int().min(0);

/** Tokens a model reported for one turn or summed over many (the provider's own usage data). */
export const tokenUsageSchema = z.object({
  /** Prompt tokens (Gemini promptTokenCount, OpenAI prompt_tokens). */
  inputTokens: count,
  /** Generated tokens (Gemini candidatesTokenCount + thoughtsTokenCount, OpenAI completion_tokens). */
  outputTokens: count,
  /** The provider's own total (it may count more than input + output, e.g. tool-use prompts). */
  totalTokens: count,
});

/** Token counts as a provider reported them. */
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

/** Latency percentiles over a sliding window; null while the window holds no sample. */
export const latencySchema = z.object({
  /** Samples inside the window (at most the ring's capacity). */
  samples: count,
  /** How far back the window reaches, ms. */
  windowMs: count,
  p50Ms: z.number().min(0).nullable(),
  p95Ms: z.number().min(0).nullable(),
  p99Ms: z.number().min(0).nullable(),
});

/** Latency percentiles of one server's recent calls. */
export type LatencySummary = z.infer<typeof latencySchema>;

/** Why a connection dropped or failed (the newest few are kept). */
export const connectionCauseSchema = z.object({
  at: z.number().int().min(0),
  /** `dropped`: a live connection ended; `failed`: a connect or a retry did not succeed. */
  kind: z.enum(['dropped', 'failed']),
  /** The HostError code (`connection_closed`, `timeout`, `ECONNREFUSED`, ...). */
  code: z.string().max(100),
  /** The redacted message, clipped. */
  message: z.string().max(500),
});

/** One recorded reason a connection ended or could not start. */
export type ConnectionCause = z.infer<typeof connectionCauseSchema>;

/**
 * One server's tool-call and connection counters. Every settled call counts once in `calls` and
 * in exactly one outcome: ok + toolErrors + errors + timeouts + cancellations = calls.
 */
export const serverMetricsSchema = z.object({
  serverId: z.string().min(1).max(200),
  calls: count,
  /** Answered without isError. */
  ok: count,
  /** Answered with `isError: true` (the tool said it failed). */
  toolErrors: count,
  /** Failed without an answer: protocol errors, a crash, not connected, unknown tool. */
  errors: count,
  timeouts: count,
  /** Stopped by a person, a run's stop, or shutdown. */
  cancellations: count,
  /** JSON size (characters) of the calls' params sent, and of the results received. */
  bytesOut: count,
  bytesIn: count,
  /** Calls other than timeouts and cancellations, over the window (those would only echo the limits). */
  latency: latencySchema,
  /** Successful connects that were not reconnects (first start, restart, enable). */
  connects: count,
  /** Successful connects after the connection dropped (automatic, with backoff). */
  reconnects: count,
  /** Live connections that ended on their own (crash, exit, network). */
  drops: count,
  /** Connects and retries that failed. */
  connectFailures: count,
  /** Calls counted in latency, ever, and their summed latency in µs (Prometheus _count and _sum). */
  timedCalls: count,
  latencyMicros: count,
  /** The newest causes, oldest first. */
  causes: z.array(connectionCauseSchema).max(100),
  lastCallAt: z.number().int().min(0).optional(),
});

/** One server's counters. */
export type ServerMetrics = z.infer<typeof serverMetricsSchema>;

/** Token usage of one provider/model, summed over every turn the host ran. */
export const modelUsageSchema = tokenUsageSchema.extend({
  provider: z.string().min(1).max(50),
  model: z.string().min(1).max(200),
  /** Model turns that reported usage. */
  turns: count,
});

/** Token usage of one model. */
export type ModelUsage = z.infer<typeof modelUsageSchema>;

/** Everything `metrics.get` answers and `mcp-desk metrics --json` prints. */
export const metricsSnapshotSchema = z.object({
  version: z.literal(1),
  /** When counting started (the first recording after a reset), ms since the epoch. */
  since: z.number().int().min(0),
  /** When this snapshot was taken. */
  at: z.number().int().min(0),
  servers: z.array(serverMetricsSchema),
  models: z.array(modelUsageSchema),
});

/** A point-in-time copy of every counter. */
export type MetricsSnapshot = z.infer<typeof metricsSnapshotSchema>;

/** Sum two usages (either may be absent). */
export function addUsage(a: TokenUsage | undefined, b: TokenUsage): TokenUsage {
  return {
    inputTokens: (a?.inputTokens ?? 0) + b.inputTokens,
    outputTokens: (a?.outputTokens ?? 0) + b.outputTokens,
    totalTokens: (a?.totalTokens ?? 0) + b.totalTokens,
  };
}
