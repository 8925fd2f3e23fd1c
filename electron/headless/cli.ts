import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { composeHost, type HostServices } from '../host/compose.js';
import { HostLog, logProcessErrors } from '../host/diagnostics/host-log.js';
import { defaultConfigPath, defaultDataDir } from '../host/paths.js';
import { toHostError } from '../host/util/errors.js';
import { startBridge } from './bridge-server.js';
import { proxyScriptFrom } from '../host/apps/sandbox-page.js';
import { startSandboxServer } from './sandbox-server.js';
import { parseCliArgs, USAGE, type CliArgs } from './cli-args.js';
import { describeState, firstText, renderContent, serverJson, toolsJson, withHint } from './cli-output.js';
import { describeAppOutput, runAppCommand } from './cli-app.js';
import { runAsk } from './cli-ask.js';
import { runAuditFlows } from './cli-audit-flows.js';
import { runAuditTools } from './cli-audit-tools.js';
import { runOffer, runToolSearch } from './cli-tool-selection.js';
import { runDeepLinkInstall, terminalConfirm } from './cli-deeplink.js';
import { isDeepLink } from '../host/registry/deep-link.js';
import { installBundleFile, uninstallBundle } from './cli-bundles.js';
import { runExportCommand, runImportCommand } from './cli-import.js';
import { runMetrics } from './cli-metrics.js';
import { answerElicitationsHeadless } from './cli-elicitation.js';
import { answerSamplingHeadless } from './cli-sampling.js';
import { runConformanceClient } from './conformance-client.js';
import { findElectron, NO_ELECTRON, packageRoot, runDesktop } from './cli-desktop.js';
import { openExternalChecked, openInBrowser } from './open-browser.js';
import { exitWhenFlushed, INTERRUPTED_EXIT_CODE, watchQuitSignals, type QuitWatch } from './quit-signals.js';

/** Exit codes: 0 ok, 1 the operation failed, 2 bad usage. */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** How long past --timeout the CLI waits for servers to settle (a failed connect unwinding). */
const SETTLE_GRACE_MS = 5000;

const out = (text: string) => process.stdout.write(`${text}\n`);

async function main(argv: string[]): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    throw new CliError((error as Error).message, 2);
  }
  if (args.version) return (out('0.1.0'), 0);
  if (args.help || !args.command) return (out(USAGE), args.help ? 0 : 2);
  if (args.command === 'client') return runConformanceClient(args.positionals[0], args.timeoutMs);
  // `mcp-desk app` alone is the desktop app (with a server and tool it renders an App's view).
  if (args.command === 'app' && args.positionals.length === 0) {
    const root = packageRoot(import.meta.url);
    const electron = findElectron(root);
    if (!electron) throw new CliError(NO_ELECTRON.replace(/^mcp-desk: /, ''), 1);
    return runDesktop(root, electron);
  }

  // From here on the host may start servers: a quit signal must reach the dispose() below, even
  // one that arrives while the host is still starting up.
  const quit = watchQuitSignals((text) => process.stderr.write(`mcp-desk: ${text}\n`));
  const dataDir = defaultDataDir();
  const configPath = args.config ?? defaultConfigPath(dataDir);
  if (args.command === 'metrics') {
    if (args.json && args.prometheus) throw new CliError('choose one of --json and --prometheus', 2);
    const format = args.json ? 'json' : args.prometheus ? 'prometheus' : 'text';
    return runMetrics({ path: join(dataDir, 'metrics.json'), format, reset: args.reset }, out);
  }
  const browser = args.command === 'browser';
  // Bundles are installed into the data folder (files, and their audit records).
  const bundleCommand = args.command === 'install' || args.command === 'uninstall';
  if (browser && args.roots.length > 0)
    process.stderr.write('mcp-desk: --root is ignored in browser mode; add folders in the Folders view\n');
  const geminiBaseUrl = args.baseUrl ?? process.env.MCP_DESK_GEMINI_BASE_URL;
  // Browser mode logs its uncaught errors like the desktop app: <dataDir>/logs (diagnostics/host-log.ts).
  const log = browser ? HostLog.inDataDir(dataDir, '0.1.0') : undefined;
  if (log) logProcessErrors(process, log, 'host', { rejections: false });
  const services = await composeHost({
    ...(log ? { log } : {}),
    configPath,
    eraCachePath: join(dataDir, 'era-verdicts.json'),
    mode: browser ? 'browser' : 'cli',
    // One-shot runs keep no history, but what their calls did counts (mcp-desk metrics reads it).
    metricsPath: join(dataDir, 'metrics.json'),
    // Pins are the app's: a tool first seen by a one-shot command is pinned for the app too.
    toolPinsPath: join(dataDir, 'tool-pins.json'),
    // Tool vectors too (semantic ranking, when on): a restart embeds nothing again.
    toolVectorsPath: join(dataDir, 'tool-vectors.json'),
    // So are the flow labels a person set: `audit-flows` and `ask` judge tools as the app does.
    flowLabelsPath: join(dataDir, 'flows.json'),
    // --timeout bounds every step of every server (connect, lists, calls), over the config's.
    ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
    // A relative --root means the shell's working directory, like every other CLI path.
    // --root is for one-shot commands; browser mode keeps the person's saved folders (edit them in the UI).
    ...(args.roots.length > 0 && !browser
      ? { roots: args.roots.map((r) => (/^file:/i.test(r) ? r : resolve(r))) }
      : {}),
    // Browser mode is the app without Electron: it keeps conversations and settings. One-shot
    // commands keep theirs in memory and never touch the person's history.
    ...(browser ? { dataDir, openExternal: openExternalChecked } : {}),
    // Installs and imports change the person's server list (and bundles live there): audited in
    // the data folder like the app's.
    ...(bundleCommand || args.command === 'import' ? { dataDir } : {}),
    // `ask` keeps no history, but its approvals (a held flow allowed with --allow-flows) are the person's record.
    ...(args.command === 'ask' ? { auditDir: join(dataDir, 'audit') } : {}),
    providerOverrides: {
      ...(geminiBaseUrl ? { geminiBaseUrl } : {}),
      ...(!browser && process.env.GEMINI_API_KEY ? { geminiApiKey: process.env.GEMINI_API_KEY } : {}),
    },
  });
  // Browser mode has a person at the UI; every other command answers servers' questions itself.
  if (!browser)
    answerElicitationsHeadless(services, args.elicitation, (text) =>
      process.stderr.write(`mcp-desk: ${text}\n`),
    );
  if (!browser)
    answerSamplingHeadless(services, args.sampling, args.model, (text) =>
      process.stderr.write(`mcp-desk: ${text}\n`),
    );
  try {
    if (browser) return await run(args, services, quit);
    // A one-shot command interrupted mid-way still stops its servers before exiting.
    const interrupted = quit.requested.then((signal) => {
      process.stderr.write(`mcp-desk: interrupted (${signal}); stopping servers\n`);
      return INTERRUPTED_EXIT_CODE[signal];
    });
    return await Promise.race([run(args, services, quit), interrupted]);
  } finally {
    // Awaited before main() resolves: every server's process tree is gone and every queued
    // write (audit, roots, settings, conversations) is on disk before the exit code is set.
    await services.dispose();
  }
}

async function run(args: CliArgs, services: HostServices, quit: QuitWatch): Promise<number> {
  const { host, events, router } = services;
  // Each step of a connect gives up by itself after --timeout (probe, initialize, lists: three at
  // most); wait for that, plus a grace for a failed one to unwind and say why.
  const wait = args.timeoutMs !== undefined ? 3 * args.timeoutMs + SETTLE_GRACE_MS : 30_000;
  const [a, b, c] = args.positionals;
  // `install mcp-desk://install?…`: an install link (a .mcpb file is the bundle flow's).
  if (args.command === 'install' && a !== undefined && isDeepLink(a))
    return runDeepLinkInstall(args, services, a, wait, { out, confirm: terminalConfirm() });
  switch (args.command) {
    case 'servers': {
      await host.init();
      const list = await host.whenSettled(wait);
      if (args.json) out(JSON.stringify(list.map(serverJson)));
      else for (const s of list) out(`${s.id}\t${describeState(s.state)}`);
      return 0;
    }
    case 'tools':
      if (args.search === undefined) return listCatalog(args, services, wait);
      return runToolSearch(
        services,
        { query: args.search, limit: args.limit ?? 20, json: args.json, waitMs: wait },
        { out, err: (text) => process.stderr.write(`${text}\n`) },
      );
    case 'offer':
      return runOffer(
        services,
        {
          prompts: args.positionals,
          ...(args.prompts ? { file: args.prompts } : {}),
          json: args.json,
          waitMs: wait,
        },
        { out, err: (text) => process.stderr.write(`${text}\n`) },
      ).catch((error: unknown) => {
        throw new CliError((error as Error).message, 2);
      });
    case 'resources':
    case 'prompts':
      return listCatalog(args, services, wait);
    case 'audit-tools':
      return runAuditTools(
        services,
        { json: args.json, waitMs: wait },
        { out, err: (text) => process.stderr.write(`${text}\n`) },
      );
    case 'audit-flows':
      return runAuditFlows(
        services,
        { json: args.json, waitMs: wait },
        { out, err: (text) => process.stderr.write(`${text}\n`) },
      );
    case 'call': {
      if (!a || !b) throw new CliError('usage: mcp-desk call SERVER TOOL [JSON_ARGS]', 2);
      const toolArgs = parseToolArgs(c);
      await ensureConnected(host, a, wait);
      const result = await host.callTool(a, b, toolArgs, { timeoutMs: args.timeoutMs });
      out(args.json ? JSON.stringify(result) : renderContent(result));
      if (result.isError) throw new CliError(`${a}/${b} returned an error: ${firstText(result)}`);
      return 0;
    }
    case 'app': {
      if (!a || !b || !args.out)
        throw new CliError('usage: mcp-desk app SERVER TOOL [JSON_ARGS] --out DIR', 2);
      const toolArgs = parseToolArgs(c);
      await ensureConnected(host, a, wait);
      const { output, result } = await runAppCommand(services, {
        serverId: a,
        tool: b,
        args: toolArgs,
        outDir: args.out,
        ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
      });
      out(args.json ? JSON.stringify(output) : describeAppOutput(output, result));
      if (result.isError) throw new CliError(`${a}/${b} returned an error: ${firstText(result)}`);
      return 0;
    }
    case 'read': {
      if (!a || !b) throw new CliError('usage: mcp-desk read SERVER URI', 2);
      await ensureConnected(host, a, wait);
      const result = await host.readResource(a, b);
      out(
        args.json
          ? JSON.stringify(result)
          : result.contents.map((x) => x.text ?? `[blob ${x.mimeType ?? ''}]`).join('\n'),
      );
      return 0;
    }
    case 'ask': {
      const prompt = [a, b, c, ...args.positionals.slice(3)].filter((x) => x !== undefined).join(' ');
      if (!prompt.trim())
        throw new CliError(
          'usage: mcp-desk ask "PROMPT" [--model M] [--yes [--allow-flows]] [--json] [--base-url URL]',
          2,
        );
      return runAsk(args, services, prompt, wait);
    }
    case 'install': {
      if (!a) throw new CliError('usage: mcp-desk install FILE.mcpb [--set KEY=VALUE]... [--json]', 2);
      // One branch per kind of thing to install; more kinds (links) add a case here.
      if (a.toLowerCase().endsWith('.mcpb'))
        return installBundleFile(
          services,
          a,
          { sets: args.sets, json: args.json, waitMs: wait, dryRun: args.dryRun },
          out,
        );
      throw new CliError(`install: "${a}" is not a .mcpb file`, 2);
    }
    case 'uninstall': {
      if (!a) throw new CliError('usage: mcp-desk uninstall NAME', 2);
      return uninstallBundle(services, a, args.json, out);
    }
    case 'browser': {
      await host.init();
      const rendererDir = fileURLToPath(new URL('../renderer/', import.meta.url));
      // MCP App views run behind a proxy on a second loopback listener, each on a host of its own.
      let appOrigin = '';
      const sandbox = await startSandboxServer({
        appOrigin: () => appOrigin,
        policyFor: (viewId) => services.appViews.policyFor(viewId),
        script: proxyScriptFrom(fileURLToPath(new URL('../sandbox/sandbox-proxy.js', import.meta.url))),
      });
      const bridge = await startBridge({
        router,
        events,
        rendererDir,
        port: args.port,
        frameSource: sandbox.frameSource,
      }).catch(async (error: unknown) => {
        await sandbox.close();
        throw error;
      });
      appOrigin = `http://127.0.0.1:${bridge.port}`;
      services.appViews.attachSandbox(sandbox);
      out(`MCP Desk browser mode: ${bridge.url}`);
      out(`config: ${host.configPath}`);
      if (args.open) openInBrowser(bridge.url);
      // Quitting the app (Ctrl+C, SIGTERM from the OS or a service manager) is a normal end.
      await quit.requested;
      await bridge.close();
      await sandbox.close();
      return 0;
    }
    case 'import':
      return runImportCommand(args, services, { out, err: (text) => process.stderr.write(`${text}\n`) });
    case 'export':
      return runExportCommand(args, services, { out, err: (text) => process.stderr.write(`${text}\n`) });
    default:
      throw new CliError(`unknown command "${args.command}" (see --help)`, 2);
  }
}

/** `tools`, `resources`, `prompts`: every item of every connected server. */
async function listCatalog(args: CliArgs, services: HostServices, wait: number): Promise<number> {
  const { host } = services;
  await host.init();
  const list = await host.whenSettled(wait);
  for (const s of list)
    if (s.state.kind !== 'connected') process.stderr.write(`${s.id}: ${describeState(s.state)}\n`);
  const cat = host.catalog();
  if (args.command === 'tools') {
    const rows = toolsJson(cat);
    if (args.json) out(JSON.stringify(rows));
    else for (const t of rows) out(`${t.server}\t${t.name}\t${t.description.split('\n')[0]}`);
  } else if (args.command === 'resources') {
    const rows = cat.resources.map((r) => ({
      server: r.serverId,
      uri: r.resource.uri,
      name: r.resource.name,
    }));
    if (args.json) out(JSON.stringify(rows));
    else for (const r of rows) out(`${r.server}\t${r.uri}\t${r.name}`);
  } else {
    const rows = cat.prompts.map((p) => ({
      server: p.serverId,
      name: p.prompt.name,
      description: p.prompt.description ?? '',
    }));
    if (args.json) out(JSON.stringify(rows));
    else for (const p of rows) out(`${p.server}\t${p.name}\t${p.description}`);
  }
  return 0;
}

/** A command's JSON_ARGS: absent is `{}`; anything but a JSON object is a usage error. */
function parseToolArgs(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new CliError(`JSON_ARGS is not valid JSON: ${(error as Error).message}`, 2);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new CliError('JSON_ARGS must be a JSON object', 2);
  return parsed as Record<string, unknown>;
}

/** Start just one server and wait for it, with a reason when it does not come up. */
async function ensureConnected(host: HostServices['host'], name: string, wait: number): Promise<void> {
  await host.init((n) => n === name);
  const s = (await host.whenSettled(wait)).find((x) => x.id === name);
  if (!s) throw new CliError(`no server named "${name}" in ${host.configPath}`);
  if (s.state.kind !== 'connected')
    throw new CliError(`server "${name}" is not connected: ${describeState(s.state)}`);
}

// main() resolves only after dispose(): nothing is left to wait for, so exit now (see exitWhenFlushed).
main(process.argv.slice(2)).then(exitWhenFlushed, (error: unknown) => {
  const message = error instanceof CliError ? error.message : withHint(toHostError(error));
  process.stderr.write(`mcp-desk: ${message.split('\n')[0]}\n`);
  exitWhenFlushed(error instanceof CliError ? error.exitCode : 1);
});
