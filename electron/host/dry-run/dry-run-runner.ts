import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DryRunAttempts, DryRunItem, DryRunReport } from '../../../shared/domain/dry-run.js';
import type { Tool } from '../../../shared/domain/mcp-types.js';
import { isStdioConfig, type ServerConfig } from '../../../shared/domain/server-config.js';
import type { OpenedClient } from '../connection/client-factory.js';
import { closeOpened } from '../connection/close-session.js';
import { attemptConnect } from '../connection/connect-attempt.js';
import { loadConnectionLists } from '../connection/connection-lists.js';
import { MemoryEraCache } from '../connection/era-cache.js';
import type { LaunchContext } from '../connection/launch.js';
import type { SandboxDetector } from '../connection/sandbox/sandbox-detector.js';
import { traceAvailability, type TraceAvailability } from '../connection/sandbox/syscall-trace.js';
import { readTrace } from '../connection/sandbox/trace-report.js';
import { ServerOutput } from '../connection/server-output.js';
import { SessionOpener } from '../connection/session-opener.js';
import { launchKey } from '../config/launch-key.js';
import { toHostError } from '../util/errors.js';
import { dryRunConfig, staticNotes } from './dry-run-config.js';

/** What one dry run needs of the host. */
export interface DryRunDeps {
  /** The host's launch context; its secrets are never used (a dry run has none). */
  launch: LaunchContext;
  sandbox: SandboxDetector;
  /** How long the server may take to start and list (default 30 s). */
  timeoutMs?: number;
  /** Whether strace can record here (the system's by default; tests simulate its absence). */
  trace?: () => TraceAvailability;
}

/** A dry run's report plus the full tools it listed (for pinning them on accept). */
export interface DryRunResult {
  report: Omit<DryRunReport, 'tools'> & { tools: { name: string; description?: string }[] };
  tools: Tool[];
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** Lines of the server's stderr kept with a failure (the last ones say why). */
const STDERR_LINES = 5;

/**
 * Start a stdio server once in the dry-run sandbox (no network, no roots, no secrets,
 * everything read-only but a temporary folder that is its /tmp), list what it offers, stop it,
 * and report what it tried that the sandbox refused. The temporary folder is removed after.
 */
export async function runDry(name: string, config: ServerConfig, deps: DryRunDeps): Promise<DryRunResult> {
  const base = {
    serverName: name,
    command: isStdioConfig(config) ? config.command : config.url,
    args: isStdioConfig(config) ? [...(config.args ?? [])] : [],
    envNames: isStdioConfig(config) ? Object.keys(config.env ?? {}) : [],
    notes: staticNotes(config),
    resources: [] as DryRunItem[],
    prompts: [] as DryRunItem[],
    tools: [],
  };
  if (!isStdioConfig(config))
    return {
      report: {
        ...base,
        sandbox: {
          kind: 'not-applicable',
          reason: 'a remote server runs elsewhere: there is nothing to start here',
        },
        outcome: { kind: 'skipped' },
        attempts: { recorded: false, reason: 'a remote server runs elsewhere' },
      },
      tools: [],
    };
  const available = deps.sandbox.detect();
  if (!available.ok)
    return {
      report: {
        ...base,
        sandbox: { kind: 'unavailable', reason: available.reason },
        outcome: { kind: 'skipped' },
        attempts: { recorded: false, reason: 'not run: no sandbox here, so only the static checks apply' },
      },
      tools: [],
    };
  const work = await mkdtemp(join(tmpdir(), 'mcp-desk-dry-run-'));
  try {
    const tmp = join(work, 'tmp');
    const traceDir = join(work, 'trace');
    await mkdir(tmp);
    await mkdir(traceDir);
    const trace =
      available.tool === 'bubblewrap' ? (deps.trace ?? traceAvailability)() : traceUnavailableOn();
    const traceBase = join(traceDir, 'run');
    const ran = await startAndList(name, config, deps, {
      tmp,
      ...(trace.ok ? { trace: { strace: trace.path, base: traceBase } } : {}),
    });
    // A dry run's /tmp is its own folder: the host's /tmp is hidden from it.
    const visible = (ran.visible ?? []).filter((p) => p !== '/tmp');
    const attempts: DryRunAttempts = trace.ok
      ? await readTrace(traceBase, { visible: [...visible, work], sandboxBinary: available.path })
      : { recorded: false, reason: trace.reason };
    return {
      report: {
        ...base,
        sandbox: { kind: 'ran', tool: available.tool },
        outcome: ran.outcome,
        tools: ran.tools.map((t) => ({
          name: t.name,
          ...(t.description ? { description: t.description } : {}),
        })),
        resources: ran.resources,
        prompts: ran.prompts,
        attempts,
      },
      tools: ran.tools,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function traceUnavailableOn(): TraceAvailability {
  return {
    ok: false,
    reason: `recording what a server tries is Linux-only for now (this is ${process.platform})`,
  };
}

interface Ran {
  outcome: DryRunReport['outcome'];
  tools: Tool[];
  resources: DryRunItem[];
  prompts: DryRunItem[];
  visible?: string[];
}

async function startAndList(
  name: string,
  config: Extract<ServerConfig, { command: string }>,
  deps: DryRunDeps,
  dryRun: { tmp: string; trace?: { strace: string; base: string } },
): Promise<Ran> {
  const redactor = deps.launch.redactor;
  const output = new ServerOutput(
    redactor,
    () => undefined,
    () => false,
  );
  const timeout = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const launch: LaunchContext = { env: deps.launch.env, redactor, path: deps.launch.path };
  const eraCache = new MemoryEraCache();
  const dry = dryRunConfig(config);
  let opened: OpenedClient | undefined;
  let visible: string[] | undefined;
  let tools: Tool[] = [];
  const began = Date.now();
  try {
    const attempt = await attemptConnect({
      id: name,
      config: dry,
      deps: {
        launch,
        eraCache,
        output,
        handlers: {},
        onState: () => undefined,
        onLists: () => undefined,
        sandbox: deps.sandbox,
      },
      timeout,
      sandboxDetector: deps.sandbox,
      opener: new SessionOpener(),
      era: { key: launchKey(dry) },
      stale: () => false,
      loadLists: (client, stale, onError) =>
        loadConnectionLists(
          { config: dry, timeout, output, redactor, onToolsListed: (all) => (tools = [...all]) },
          client,
          stale,
          onError,
        ),
      onListChanged: () => undefined,
      onPlanned: (plan) => (visible = plan.visible),
      onOpened: (o) => (opened = o),
      dryRun,
    });
    const lists = attempt?.lists;
    return {
      outcome: { kind: 'listed', durationMs: Date.now() - began },
      tools: tools.length ? tools : (lists?.tools ?? []),
      resources: (lists?.resources ?? []).map((r) => ({
        name: r.uri,
        ...(r.description ? { description: r.description } : {}),
      })),
      prompts: (lists?.prompts ?? []).map((p) => ({
        name: p.name,
        ...(p.description ? { description: p.description } : {}),
      })),
      ...(visible ? { visible } : {}),
    };
  } catch (error) {
    const said = output
      .lines()
      .filter((l) => l.stream === 'stderr')
      .slice(-STDERR_LINES)
      .map((l) => l.text)
      .join('\n');
    const message = toHostError(error, redactor).message;
    return {
      outcome: { kind: 'failed', message: said ? `${message}\nits last words:\n${said}` : message },
      tools: [],
      resources: [],
      prompts: [],
      ...(visible ? { visible } : {}),
    };
  } finally {
    if (opened) await closeOpened(opened);
    await eraCache.dispose();
  }
}
