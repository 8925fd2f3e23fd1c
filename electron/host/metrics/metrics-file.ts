import { mkdir, readFile, rmdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { connectionCauseSchema, modelUsageSchema, type ModelUsage } from '../../../shared/domain/metrics.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { addCounters, MAX_CAUSES, type ServerCounters } from './server-meter.js';

/** Caps on what the file may hold, so a long-lived data folder cannot grow without bound. */
const MAX_SERVERS = 500;
const MAX_MODELS = 200;
const MAX_SAMPLES = 5000;

const persistedServerSchema = z.object({
  counters: z.record(z.string(), z.number().int().min(0)),
  samples: z.array(z.tuple([z.number(), z.number().min(0)])).max(MAX_SAMPLES),
  causes: z.array(connectionCauseSchema).max(100),
  lastCallAt: z.number().int().min(0).optional(),
});

/** The metrics file (`<dataDir>/metrics.json`): counters, recent latency samples and causes. */
export const persistedMetricsSchema = z.object({
  version: z.literal(1),
  since: z.number().int().min(0),
  servers: z.record(z.string(), persistedServerSchema),
  models: z.array(modelUsageSchema).max(MAX_MODELS * 2),
});

/** What the metrics file holds. */
export type PersistedMetrics = z.infer<typeof persistedMetricsSchema>;
/** One server's entry in the metrics file. */
export type PersistedServer = z.infer<typeof persistedServerSchema>;

/** What one process adds to the file at a flush: only its own increments since the last one. */
export interface MetricsDelta {
  since: number;
  servers: Map<
    string,
    {
      counters: ServerCounters;
      samples: [number, number][];
      causes: PersistedServer['causes'];
      lastCallAt?: number;
    }
  >;
  models: ModelUsage[];
}

/** An empty file's content. */
export function emptyPersisted(since: number): PersistedMetrics {
  return { version: 1, since, servers: {}, models: [] };
}

/** Read the file; a missing or unreadable one is empty (a bad file must not stop the host). */
export async function readMetricsFile(path: string): Promise<PersistedMetrics | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = persistedMetricsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Write the file atomically (a half-written file never replaces a good one). */
export function writeMetricsFile(path: string, data: PersistedMetrics): Promise<void> {
  return writeFileAtomic(path, JSON.stringify(data));
}

/**
 * Add one process's increments to what the file holds: counters add up, latency samples and
 * causes are merged by time and the newest kept, model usage adds up per provider/model.
 */
export function mergeMetrics(
  file: PersistedMetrics,
  delta: MetricsDelta,
  windowMs: number,
  now: number,
): PersistedMetrics {
  const servers: PersistedMetrics['servers'] = { ...file.servers };
  for (const [id, d] of delta.servers) {
    const prior = servers[id];
    const samples = [...(prior?.samples ?? []), ...d.samples]
      .filter(([at]) => at >= now - windowMs)
      .sort((a, b) => a[0] - b[0])
      .slice(-MAX_SAMPLES);
    const causes = [...(prior?.causes ?? []), ...d.causes].sort((a, b) => a.at - b.at).slice(-MAX_CAUSES);
    const lastCallAt = Math.max(prior?.lastCallAt ?? 0, d.lastCallAt ?? 0);
    servers[id] = {
      counters: { ...addCounters(prior?.counters ?? {}, d.counters) },
      samples,
      causes,
      ...(lastCallAt > 0 ? { lastCallAt } : {}),
    };
  }
  const ids = Object.keys(servers);
  if (ids.length > MAX_SERVERS) {
    // The servers least recently called go first.
    ids.sort((a, b) => (servers[a].lastCallAt ?? 0) - (servers[b].lastCallAt ?? 0));
    for (const id of ids.slice(0, ids.length - MAX_SERVERS)) delete servers[id];
  }
  const models = new Map(file.models.map((m) => [modelKey(m), { ...m }]));
  for (const m of delta.models) {
    const prior = models.get(modelKey(m));
    models.set(
      modelKey(m),
      prior
        ? {
            ...prior,
            inputTokens: prior.inputTokens + m.inputTokens,
            outputTokens: prior.outputTokens + m.outputTokens,
            totalTokens: prior.totalTokens + m.totalTokens,
            turns: prior.turns + m.turns,
          }
        : { ...m },
    );
  }
  return {
    version: 1,
    since: Math.min(file.since, delta.since),
    servers,
    models: [...models.values()].slice(-MAX_MODELS),
  };
}

/** The key of a model's usage entry. */
export function modelKey(m: { provider: string; model: string }): string {
  return `${m.provider}\u0000${m.model}`;
}

const LOCK_STALE_MS = 10_000;
const LOCK_WAIT_MS = 3000;

/**
 * Run `fn` holding `<path>.lock` (a directory: mkdir is atomic everywhere), so two processes
 * adding their increments at the same moment (the app and a CLI run) do not lose one. A lock
 * older than LOCK_STALE_MS belongs to a crashed process and is broken; after LOCK_WAIT_MS of
 * waiting the write goes ahead anyway: a lost increment is better than a host that hangs.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  await mkdir(dirname(path), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  let held = false;
  while (!held) {
    try {
      await mkdir(lock);
      held = true;
    } catch {
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > LOCK_STALE_MS) await rmdir(lock).catch(() => undefined);
      else if (Date.now() > deadline) break;
      else await new Promise((r) => setTimeout(r, 10 + Math.random() * 20));
    }
  }
  try {
    return await fn();
  } finally {
    if (held) await rmdir(lock).catch(() => undefined);
  }
}
