/**
 * The official MCP conformance suite's client scenarios, all of them, run against
 * `mcp-desk client` (the host core driven headless, electron/headless/conformance-client.ts):
 * - 0.1.16 `--suite all` (26 scenarios: core, auth, back-compat, draft, extensions);
 * - 0.2.0-alpha.12 `--requirements 2026-07-28` (the scenarios that revision requires, at its
 *   stateless wire, plus the extensions it runs without scoring).
 * Each must pass unless tools/conformance/expected-failures-<version>.yml lists it with a reason,
 * and a listed scenario that passes is stale and fails the test. Warnings count as failures.
 * The suite's summary is printed (as test diagnostics) so CI output shows every scenario.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import {
  conformanceCommand,
  conformancePackageDir,
  failedChecks,
  parseConformanceOutput,
  readScenarioList,
  repoRoot,
  runConformance,
  shellQuote,
  summaryBlock,
  type ConformanceVersion,
} from '../helpers/conformance.js';

const cliEntry = path.join(repoRoot, 'out', 'headless', 'cli.mjs');
const clientCommand = [process.execPath, path.join(repoRoot, 'bin', 'mcp-desk.mjs'), 'client']
  .map(shellQuote)
  .join(' ');
const expectedFailuresFile = (version: ConformanceVersion) =>
  path.join(repoRoot, 'tools', 'conformance', `expected-failures-${version}.yml`);

interface SuiteRun {
  version: ConformanceVersion;
  /** What selects the scenarios: `--suite all` or `--requirements 2026-07-28`. */
  selection: string[];
  /** Scenarios that must appear in the summary (all of them, or the scored ones). */
  mustRun: string[];
}

async function runSuite(t: TestContext, suite: SuiteRun): Promise<void> {
  const cmd = conformanceCommand(suite.version);
  if ('missing' in cmd) assert.fail(`conformance suite unavailable: ${cmd.missing}`);
  if (!existsSync(cliEntry)) assert.fail(`${cliEntry} is missing: run \`node scripts/build.mjs\` first`);
  const baseline = expectedFailuresFile(suite.version);
  const expected = new Set(readScenarioList(baseline));
  const outputDir = mkdtempSync(path.join(tmpdir(), 'mcp-desk-conformance-'));
  try {
    // Scenarios run in parallel inside the runner; the client gets 60 s each (its default is
    // 30 s, tight on a 2-core CI machine running other tests beside this one).
    const run = await runConformance(
      [
        'client',
        '--command',
        clientCommand,
        ...suite.selection,
        '--timeout',
        '60000',
        '--expected-failures',
        baseline,
        '-o',
        outputDir,
      ],
      { version: suite.version, timeoutMs: 270_000 },
    );
    const label = `conformance ${suite.version} ${suite.selection.join(' ')}`;
    for (const line of summaryBlock(run)) t.diagnostic(`${label} | ${line}`);
    assert.ok(!run.timedOut, `${label}: the run timed out`);
    const summary = parseConformanceOutput(run);
    assert.ok(
      summary && summary.scenarios.length > 0,
      `${label}: no suite summary in the runner's output (exit ${run.code})`,
    );

    const byName = new Map(summary.scenarios.map((s) => [s.scenario, s]));
    const missing = suite.mustRun.filter((name) => !byName.has(name));
    assert.deepEqual(missing, [], `${label}: scenarios that did not run`);

    const checksOf = (name: string) => failedChecks(outputDir).filter((c) => c.scenario === name);
    const failedDetail = (name: string) =>
      checksOf(name)
        .map((c) => `    [${c.id}] ${c.status}: ${c.description}`)
        .join('\n');
    let unexpected = summary.scenarios.filter(
      // A scenario that ran no check never reached its server: that too is a failure here.
      (s) => (!s.ok || s.failed > 0 || s.warnings > 0 || s.passed === 0) && !expected.has(s.scenario),
    );

    // The runner starts every scenario at once; on a 2-core machine a scenario's own deadlines
    // can pass before its client is scheduled. A scenario that failed in that crowd runs again
    // on its own (up to twice) and must pass there; what its client said in the crowd is
    // printed, so a real failure explains itself.
    const rerun: string[] = [];
    for (const s of unexpected) {
      const timingOnly = isTimingOnly(s.scenario, checksOf(s.scenario));
      t.diagnostic(
        `${label} | ${s.scenario}: failed with ${summary.scenarios.length} scenarios running at once${timingOnly ? ' (its timing check only)' : ''}; running it again alone`,
      );
      for (const line of clientStderr(outputDir, s.scenario))
        t.diagnostic(`${label} | ${s.scenario} client: ${line}`);
      if (await passesAlone(t, suite.version, s.scenario)) rerun.push(s.scenario);
    }
    unexpected = unexpected.filter((s) => !rerun.includes(s.scenario));
    assert.equal(
      unexpected.length,
      0,
      `${label}: failing scenarios not in ${path.basename(baseline)}:\n${unexpected.map((s) => `  ${s.scenario}: ${s.failed} failed, ${s.warnings} warnings\n${failedDetail(s.scenario)}`).join('\n')}`,
    );
    const stale = [...expected].filter((name) => byName.get(name)?.ok === true);
    assert.deepEqual(
      stale,
      [],
      `${label}: listed as expected failures but passing now: remove them from ${path.basename(baseline)}`,
    );
    const notRun = [...expected].filter((name) => !byName.has(name));
    assert.deepEqual(notRun, [], `${label}: listed as expected failures but not run`);
    // A scenario passes with 0 checks when the client never reaches its server.
    const empty = summary.scenarios
      .filter((s) => s.passed === 0 && !expected.has(s.scenario) && !rerun.includes(s.scenario))
      .map((s) => s.scenario);
    assert.deepEqual(empty, [], `${label}: scenarios that ran no check`);
    // The runner fails the run on any unlisted failure, including one that passed alone.
    if (rerun.length === 0) assert.equal(run.code, 0, `${label}: runner exit code ${run.code}`);
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
}

/**
 * Checks that time the client against a wall clock (sse-retry: reconnect within 500 ms + 200 ms
 * of the server's `retry`), which a 2-core machine starting two dozen clients at once can miss.
 */
const TIMING_CHECKS: Record<string, string[]> = { 'sse-retry': ['client-sse-retry-timing'] };

/** Whether every failed check of a scenario is one of its wall-clock checks. */
function isTimingOnly(scenario: string, failing: { id: string }[]): boolean {
  const timing = TIMING_CHECKS[scenario];
  return !!timing && failing.length > 0 && failing.every((c) => timing.includes(c.id));
}

/** The last lines the client wrote to stderr in a scenario's run (the runner keeps them). */
function clientStderr(outputDir: string, scenario: string): string[] {
  // Each run's folder is the scenario's last segment and a timestamp: `iss-supported-2026-…`.
  const base = (scenario.split('/').pop() ?? scenario).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const runFolder = new RegExp(`^${base}-\\d{4}-\\d{2}-\\d{2}T`);
  const parent = path.join(outputDir, path.dirname(scenario) === '.' ? '' : path.dirname(scenario));
  try {
    const dir = readdirSync(parent).find((name) => runFolder.test(name));
    if (!dir) return [];
    const text = readFileSync(path.join(parent, dir, 'stderr.txt'), 'utf8');
    return text
      .split('\n')
      .filter((line) => line.trim())
      .slice(-8);
  } catch {
    return [];
  }
}

/** Runs one scenario on its own (up to twice) and reports whether it passed cleanly. */
async function passesAlone(t: TestContext, version: ConformanceVersion, scenario: string): Promise<boolean> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    const run = await runConformance(
      ['client', '--command', clientCommand, '--scenario', scenario, '--timeout', '60000'],
      { version, timeoutMs: 120_000 },
    );
    const result = parseConformanceOutput(run);
    // Judged by its checks: a scenario's client may exit non-zero on purpose (sep-2322 hands it
    // a tool result it must refuse), which alone says nothing about conformance.
    const ok =
      !run.timedOut &&
      result !== undefined &&
      (result.total ?? 0) > 0 &&
      result.failed === 0 &&
      result.warnings === 0;
    t.diagnostic(
      `conformance ${version} --scenario ${scenario} (alone, attempt ${attempt}): ${result ? `${result.passed}/${result.total} passed, ${result.failed} failed, ${result.warnings} warnings` : 'no summary'}`,
    );
    if (ok) return true;
  }
  return false;
}

test('conformance 0.1.16 client --suite all', { timeout: 300_000 }, async (t) => {
  await runSuite(t, {
    version: '0.1.16',
    selection: ['--suite', 'all'],
    // 0.1.16's `list --client`: every client scenario it has (see tests/helpers/conformance.ts).
    mustRun: [
      'initialize',
      'tools_call',
      'elicitation-sep1034-client-defaults',
      'sse-retry',
      'auth/metadata-default',
      'auth/metadata-var1',
      'auth/metadata-var2',
      'auth/metadata-var3',
      'auth/basic-cimd',
      'auth/scope-from-www-authenticate',
      'auth/scope-from-scopes-supported',
      'auth/scope-omitted-when-undefined',
      'auth/scope-step-up',
      'auth/scope-retry-limit',
      'auth/token-endpoint-auth-basic',
      'auth/token-endpoint-auth-post',
      'auth/token-endpoint-auth-none',
      'auth/pre-registration',
      'auth/2025-03-26-oauth-metadata-backcompat',
      'auth/2025-03-26-oauth-endpoint-fallback',
      'auth/resource-mismatch',
      'auth/offline-access-scope',
      'auth/offline-access-not-supported',
      'auth/client-credentials-jwt',
      'auth/client-credentials-basic',
      'auth/cross-app-access-complete-flow',
    ],
  });
});

test('conformance 0.2.0-alpha.12 client --requirements 2026-07-28', { timeout: 300_000 }, async (t) => {
  // The scored client scenarios, read from the suite's own frozen requirement set.
  const scored = readScenarioList(
    path.join(conformancePackageDir('0.2.0-alpha.12'), 'requirements', '2026-07-28.yaml'),
  );
  assert.ok(scored.length >= 30, `the 2026-07-28 requirement set lists ${scored.length} client scenarios`);
  await runSuite(t, {
    version: '0.2.0-alpha.12',
    selection: ['--requirements', '2026-07-28'],
    mustRun: scored,
  });
});
