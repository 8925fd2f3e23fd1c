/**
 * The official MCP conformance suite's client scenarios, run against `mcp-desk client`
 * (the host core driven headless). The runner appends the scenario server's URL to the
 * command and sets MCP_CONFORMANCE_SCENARIO. Warnings count as failures.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { conformanceCommand, parseConformanceOutput, repoRoot, runConformance, shellQuote } from '../helpers/conformance.js';

const cliEntry = path.join(repoRoot, 'out', 'headless', 'cli.mjs');
const clientCommand = [process.execPath, path.join(repoRoot, 'bin', 'mcp-desk.mjs'), 'client'].map(shellQuote).join(' ');

const SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];

for (const scenario of SCENARIOS) {
  test(`conformance 0.1.16 client scenario: ${scenario}`, { timeout: 180_000 }, async (t) => {
    const cmd = conformanceCommand();
    if ('missing' in cmd) assert.fail(`conformance suite unavailable: ${cmd.missing}`);
    if (!existsSync(cliEntry)) assert.fail(`${cliEntry} is missing: run \`node scripts/build.mjs\` first`);
    const run = await runConformance(['client', '--command', clientCommand, '--scenario', scenario, '--timeout', '60000'], { timeoutMs: 150_000 });
    const summary = parseConformanceOutput(run);
    t.diagnostic(`${scenario}: ${summary ? `${summary.passed}/${summary.total} passed, ${summary.failed} failed, ${summary.warnings} warnings` : 'no summary'}`);
    assert.ok(!run.timedOut, `the conformance run timed out\n${run.stderr.slice(-2000)}`);
    assert.ok(summary, `no summary in the runner's output\n${run.stdout.slice(-1500)}\n${run.stderr.slice(-1500)}`);
    assert.ok((summary.total ?? 0) > 0, 'the scenario ran no check: the client never reached the server');
    assert.equal(summary.failed, 0, `failed checks\n${run.stdout.slice(-3000)}`);
    assert.equal(summary.warnings, 0, `warnings count as failures\n${run.stdout.slice(-3000)}`);
    assert.equal(run.code, 0, `runner exit code ${run.code}\n${run.stderr.slice(-2000)}`);
  });
}
