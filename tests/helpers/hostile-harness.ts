/**
 * Shared by the hostile-server tests: one host holding a healthy server beside the hostile
 * ones, a check that the healthy one still works (and the host's state is sane), and the
 * memory ceiling the whole hostile suite must stay under.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ServerConfig } from '../../shared/domain/server-config.js';
import {
  createTestHost,
  nodeServer,
  pidsWithEnv,
  REPO_ROOT,
  SERVERS,
  textOf,
  waitAllDead,
  waitForState,
  type CleanupStack,
  type TestHost,
  type TestHostOptions,
} from './host-harness.js';

/** The hostile fixture (raw JSON-RPC over stdio). */
export const HOSTILE = join(REPO_ROOT, 'tests/fixtures/hostile-server.mjs');

/** The peak RSS the hostile suite allows the test process (the host runs in it). */
export const RSS_CEILING_BYTES = 1024 * 1024 * 1024;

/** A config for the hostile fixture; `marker` lands in its environment (and its children's). */
export function hostileServer(
  env: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): ServerConfig {
  return nodeServer(HOSTILE, [], { env, ...extra }) as ServerConfig;
}

/** A host with `healthy` (crash-server's echo) and whatever else is given, all connected. */
export async function hostWithHealthy(
  stack: CleanupStack,
  servers: Record<string, ServerConfig> = {},
  opts: TestHostOptions = {},
): Promise<TestHost> {
  const t = await createTestHost(stack, {
    ...opts,
    servers: { healthy: nodeServer(SERVERS.crash), ...servers },
  });
  await waitForState(t.host, 'healthy', 'connected');
  for (const id of Object.keys(servers)) await waitForState(t.host, id, 'connected');
  return t;
}

/** The healthy server still answers, and still is connected. */
export async function assertHealthy(t: TestHost): Promise<void> {
  const word = `still-here-${randomUUID().slice(0, 8)}`;
  assert.equal(textOf(await t.host.callTool('healthy', 'echo', { message: word })), word);
  assert.equal(t.host.list().find((s) => s.id === 'healthy')?.state.kind, 'connected');
}

/** A unique environment marker, and a check that no process carrying it is alive. */
export function processMarker(): { env: Record<string, string>; assertNoneLeft: () => Promise<void> } {
  const value = `hostile-${randomUUID()}`;
  return {
    env: { HOSTILE_MARKER: value },
    assertNoneLeft: () => waitAllDead(pidsWithEnv(`HOSTILE_MARKER=${value}`), 10_000),
  };
}

/** The suite's `after`: clean up, then check the peak RSS the whole file reached. */
export async function cleanUpAndAssertPeakRss(stack: CleanupStack): Promise<void> {
  await stack.run();
  assertPeakRss();
}

/** The test process's peak RSS so far (the host runs in it) is under the ceiling. */
export function assertPeakRss(): number {
  const peak = process.resourceUsage().maxRSS * 1024;
  // Printed for the report: how far below the ceiling each file stays.
  console.error(`hostile suite: peak RSS of this file ${Math.round(peak / 1024 / 1024)} MB`);
  assert.ok(peak < RSS_CEILING_BYTES, `peak RSS ${Math.round(peak / 1024 / 1024)} MB is over 1 GB`);
  return peak;
}
