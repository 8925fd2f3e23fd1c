import type { MetricsSnapshot } from '../../domain/metrics.js';
import { empty, typed } from './channel-kit.js';

/** What the host counted: per-server calls, outcomes, bytes, latency and connections; model tokens. */
export const metricsChannels = {
  /** Every counter now (the Servers › Info panel, the Activity summary). */
  'metrics.get': { request: empty, response: typed<MetricsSnapshot>() },
  /** Start counting from zero; answers the empty snapshot. */
  'metrics.reset': { request: empty, response: typed<MetricsSnapshot>() },
} as const;
