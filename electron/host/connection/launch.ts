import { isStdioConfig, type ServerConfig } from '../../../shared/domain/server-config.js';
import { expandMap, expandRefs, type SecretResolver } from '../config/expand.js';
import type { Redactor } from '../util/redact.js';

/** What it takes to reach one server, with every reference expanded. */
export type LaunchPlan =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: URL; headers: Record<string, string>; transport: 'auto' | 'streamable' | 'sse' };

export interface LaunchContext {
  env: NodeJS.ProcessEnv;
  secrets?: SecretResolver;
  redactor: Redactor;
  /** The PATH stdio servers get (the login shell's, for a GUI app). */
  path: () => Promise<string>;
}

/** Expand references and decide the transport. Errors name the server and field. */
export async function planLaunch(
  name: string,
  config: ServerConfig,
  ctx: LaunchContext,
): Promise<LaunchPlan> {
  if (isStdioConfig(config)) {
    const env = await expandMap(
      config.env,
      { server: name, field: 'env' },
      ctx.env,
      ctx.secrets,
      ctx.redactor,
    );
    for (const v of Object.values(env)) ctx.redactor.addSecret(v);
    const args: string[] = [];
    for (const [i, a] of (config.args ?? []).entries()) {
      args.push(
        await expandRefs(a, { server: name, field: `args[${i}]` }, ctx.env, ctx.secrets, ctx.redactor),
      );
    }
    const command = await expandRefs(
      config.command,
      { server: name, field: 'command' },
      ctx.env,
      ctx.secrets,
      ctx.redactor,
    );
    const cwd = config.cwd
      ? await expandRefs(config.cwd, { server: name, field: 'cwd' }, ctx.env, ctx.secrets, ctx.redactor)
      : undefined;
    // The config's own PATH wins; otherwise the login shell's. cross-spawn (inside the SDK's
    // stdio transport) resolves `npx` to `npx.cmd` via PATHEXT on Windows.
    const path = env.PATH ?? env.Path ?? (await ctx.path());
    // A node bundle runs on the app's own Node, as Claude Desktop does: no system Node needed.
    // In Electron that is the app binary acting as Node; in browser mode and the CLI, node itself.
    const ownNode = config.bundle?.runtime === 'node' && command === 'node';
    return {
      kind: 'stdio',
      command: ownNode ? process.execPath : command,
      args,
      env: {
        ...inheritedEnv(ctx.env),
        PATH: path,
        ...env,
        ...(ownNode ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
      },
      ...(cwd ? { cwd } : {}),
    };
  }
  const headers = await expandMap(
    config.headers,
    { server: name, field: 'headers' },
    ctx.env,
    ctx.secrets,
    ctx.redactor,
  );
  for (const [k, v] of Object.entries(headers)) {
    if (
      /^(authorization|x-api-key|api-key|cookie)$/i.test(k) ||
      /\$\{secret:/.test(config.headers?.[k] ?? '')
    )
      ctx.redactor.addSecret(v);
  }
  const url = new URL(
    await expandRefs(config.url, { server: name, field: 'url' }, ctx.env, ctx.secrets, ctx.redactor),
  );
  const transport =
    config.type === 'sse'
      ? 'sse'
      : config.type === 'http' || config.type === 'streamable-http'
        ? 'streamable'
        : 'auto';
  return { kind: 'http', url, headers, transport };
}

/**
 * The environment a stdio server inherits: the basics a program needs to run, not the
 * host's whole environment (which may hold the person's unrelated credentials).
 */
function inheritedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const keep =
    process.platform === 'win32'
      ? [
          'APPDATA',
          'HOMEDRIVE',
          'HOMEPATH',
          'LOCALAPPDATA',
          'PATHEXT',
          'PROCESSOR_ARCHITECTURE',
          'SYSTEMDRIVE',
          'SYSTEMROOT',
          'TEMP',
          'TMP',
          'USERNAME',
          'USERPROFILE',
          'PROGRAMFILES',
          'ComSpec',
        ]
      : [
          'HOME',
          'LOGNAME',
          'SHELL',
          'TERM',
          'USER',
          'LANG',
          'LC_ALL',
          'TMPDIR',
          'XDG_RUNTIME_DIR',
          'XDG_CONFIG_HOME',
          'XDG_DATA_HOME',
          'XDG_CACHE_HOME',
          'DBUS_SESSION_BUS_ADDRESS',
          'NODE_EXTRA_CA_CERTS',
          'SSL_CERT_FILE',
        ];
  const out: Record<string, string> = {};
  for (const k of keep) {
    const v = env[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}
