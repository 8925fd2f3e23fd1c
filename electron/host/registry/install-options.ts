import type { InstallOption } from '../../../shared/domain/registry.js';
import { fill, slotsOf, specOf, type FillContext, type ValueSpec } from './install-values.js';
import type { Argument, Package, ServerJson, Transport } from './server-json.js';

/**
 * The translator from a registry `server.json` to MCP Desk entries (pure): every package and
 * every remote becomes an install option with the values it needs, and an option plus the
 * person's values becomes our mcpServers entry. Commands are argument arrays, never a shell
 * line, so a value like `; rm -rf ~` stays one argument (the schema's own warning).
 */

/** An option with what building its entry needs (host-side only; `view` crosses). */
export interface OptionPlan {
  view: InstallOption;
  /** Absent for options that cannot be installed (or install as a bundle). */
  build?: (ctx: FillContext) => Record<string, unknown>;
  /** The package behind an mcpb option. */
  bundle?: { url: string; sha256: string };
}

const NPM_DEFAULT = /^https:\/\/registry\.npmjs\.org\/?$/;
const PYPI_DEFAULT = /^https:\/\/pypi\.org\/?(?:simple\/?)?$/;
// Identifiers go on a command line: none may start with "-" (it would read as an option).
const NPM_NAME = /^(?:@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/;
const PYPI_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[A-Za-z0-9._,-]+\])?$/;
const OCI_NAME = /^[A-Za-z0-9][A-Za-z0-9._/:@+-]*$/;
const VERSION = /^[A-Za-z0-9][A-Za-z0-9._+!-]*$/;

/** Every way to install a server.json; `bundles` says whether the bundle flow is wired in. */
export function planOptions(doc: ServerJson, bundles: boolean): OptionPlan[] {
  const plans: OptionPlan[] = [];
  (doc.packages ?? []).forEach((pkg, i) => plans.push(packagePlan(pkg, i, bundles)));
  (doc.remotes ?? []).forEach((remote, i) => plans.push(remotePlan(remote, i)));
  return plans;
}

function packagePlan(pkg: Package, index: number, bundles: boolean): OptionPlan {
  const id = `package-${index}`;
  const type = String(pkg.registryType);
  const transport = String(pkg.transport?.type ?? 'stdio');
  const label = `${type} package ${pkg.identifier}${pkg.version ? ` ${pkg.version}` : ''}`;
  const base = { id, kind: 'package' as const, label, registryType: type, transport };
  const unavailable = (reason: string): OptionPlan => ({
    view: { ...base, available: false, reason, inputs: [] },
  });
  if (type === 'mcpb') return bundlePlan(pkg, base, bundles);
  const launch = LAUNCHERS[type];
  if (!launch) return unavailable(`MCP Desk cannot run ${type} packages; use another option if there is one`);
  if (transport !== 'stdio')
    return unavailable(
      `this package runs as a local ${transport} server that MCP Desk would have to start and then reach by URL, which it cannot do yet`,
    );
  const problem = launch.check(pkg);
  if (problem) return unavailable(problem);

  const runtime = (pkg.runtimeArguments ?? []).map((a, i) => argumentSpec(a, `runtimeArg.${i}`));
  const args = (pkg.packageArguments ?? []).map((a, i) => argumentSpec(a, `arg.${i}`));
  const env = (pkg.environmentVariables ?? []).map((kv) => ({
    name: kv.name,
    spec: specOf(`env.${kv.name}`, kv.name, 'env', kv),
  }));
  const inputs = [...runtime, ...args, ...env].flatMap((s) => slotsOf(s.spec));
  return {
    view: { ...base, available: true, inputs: inputs.map((s) => s.view) },
    build: (ctx) => {
      const envOut: Record<string, string> = { ...launch.env(pkg) };
      for (const e of env) {
        const [value] = fill(e.spec, ctx);
        if (value !== undefined) envOut[e.name] = value;
      }
      const entry: Record<string, unknown> = {
        command: launch.command,
        args: launch.args(
          pkg,
          runtime.flatMap((a) => renderArgument(a, ctx)),
          args.flatMap((a) => renderArgument(a, ctx)),
          Object.keys(envOut),
        ),
      };
      if (Object.keys(envOut).length) entry.env = envOut;
      return entry;
    },
  };
}

interface Launcher {
  command: string;
  check(pkg: Package): string | undefined;
  /** The command line: the runtime's own arguments, the package, then the package's arguments. */
  args(pkg: Package, runtime: string[], rest: string[], envNames: string[]): string[];
  env(pkg: Package): Record<string, string>;
}

const LAUNCHERS: Partial<Record<string, Launcher>> = {
  npm: {
    command: 'npx',
    check: (p) => nameCheck(p, NPM_NAME, 'an npm package name'),
    args: (p, runtime, rest) => [
      '-y',
      ...runtime,
      p.version ? `${p.identifier}@${p.version}` : p.identifier,
      ...rest,
    ],
    env: (p) => registryEnv(p, NPM_DEFAULT, 'npm_config_registry', (u) => u),
  },
  pypi: {
    command: 'uvx',
    check: (p) => nameCheck(p, PYPI_NAME, 'a PyPI package name'),
    args: (p, runtime, rest) => [
      ...runtime,
      p.version ? `${p.identifier}==${p.version}` : p.identifier,
      ...rest,
    ],
    // uv reads a simple index; a registry's base URL serves one under /simple.
    env: (p) =>
      registryEnv(p, PYPI_DEFAULT, 'UV_INDEX_URL', (u) =>
        /\/simple\/?$/.test(u) ? u : `${u.replace(/\/$/, '')}/simple`,
      ),
  },
  oci: {
    command: 'docker',
    check: (p) => nameCheck(p, OCI_NAME, 'a container image reference'),
    args: dockerArgs,
    env: () => ({}),
  },
};

function nameCheck(pkg: Package, pattern: RegExp, what: string): string | undefined {
  if (!pattern.test(pkg.identifier)) return `"${pkg.identifier}" is not ${what} MCP Desk will run`;
  if (pkg.version !== undefined && !VERSION.test(pkg.version))
    return `"${pkg.version}" is not a package version MCP Desk will run`;
  if (pkg.registryBaseUrl !== undefined && !/^https?:\/\/\S+$/i.test(pkg.registryBaseUrl))
    return `the package registry "${pkg.registryBaseUrl}" is not an http(s) URL`;
  return undefined;
}

function registryEnv(
  pkg: Package,
  fallback: RegExp,
  variable: string,
  shape: (url: string) => string,
): Record<string, string> {
  const base = pkg.registryBaseUrl;
  return base && !fallback.test(base) ? { [variable]: shape(base) } : {};
}

/**
 * `docker run -i --rm [-e NAME]… [runtime arguments] IMAGE [package arguments]`. Published entries
 * often spell the whole `run …` line in runtimeArguments (the image too, without its tag): that
 * line is used as it is, with the image given its tag. A container sees only the variables it is
 * given, so each env variable is passed by name (its value comes from our env, never the args).
 */
function dockerArgs(pkg: Package, runtime: string[], rest: string[], envNames: string[]): string[] {
  const image = imageRef(pkg);
  const bare = pkg.identifier.replace(/(?::[^/:@]+|@[^/]+)$/, '');
  const own = runtime[0] === 'run';
  const line = own ? [...runtime] : ['run', '-i', '--rm', ...runtime];
  line.splice(1, 0, ...envNames.flatMap((name) => ['-e', name]));
  const at = line.findIndex((a, i) => i > 0 && (a === pkg.identifier || a === bare));
  if (at > 0) line[at] = image;
  else line.push(image);
  return [...line, ...rest];
}

/** The image with its tag: the identifier's own tag or digest wins over `version`. */
function imageRef(pkg: Package): string {
  const last = pkg.identifier.split('/').pop() ?? '';
  const tagged = last.includes(':') || pkg.identifier.includes('@');
  return tagged || !pkg.version ? pkg.identifier : `${pkg.identifier}:${pkg.version}`;
}

function bundlePlan(
  pkg: Package,
  base: Omit<InstallOption, 'available' | 'inputs'>,
  bundles: boolean,
): OptionPlan {
  const url = pkg.identifier;
  const sha = pkg.fileSha256;
  const reason = !bundles
    ? 'bundle install not available here'
    : !sha
      ? 'the server.json gives no fileSha256, so the download cannot be checked'
      : !/^(?:https:\/\/|http:\/\/(?:127\.0\.0\.1|localhost)[:/])/i.test(url)
        ? 'a bundle is downloaded only over https'
        : undefined;
  const view: InstallOption = { ...base, bundle: true, available: reason === undefined, inputs: [] };
  if (reason) return { view: { ...view, reason } };
  return { view, bundle: { url, sha256: sha ?? '' } };
}

function remotePlan(remote: Transport, index: number): OptionPlan {
  const id = `remote-${index}`;
  const transport = String(remote.type);
  const names: Record<string, string> = { 'streamable-http': 'Streamable HTTP', sse: 'SSE' };
  const view = { id, kind: 'remote' as const, label: `Remote (${names[transport] ?? transport})`, transport };
  if (!(transport in names) || typeof remote.url !== 'string')
    return {
      view: { ...view, available: false, reason: `unknown remote transport "${transport}"`, inputs: [] },
    };
  const url = specOf('url', 'URL', 'url', {
    value: remote.url,
    variables: remote.variables ?? {},
    isRequired: true,
  });
  const headers = (remote.headers ?? []).map((kv) => ({
    name: kv.name,
    spec: specOf(`header.${kv.name}`, kv.name, 'header', kv),
  }));
  const inputs = [url, ...headers.map((h) => h.spec)].flatMap(slotsOf);
  return {
    view: { ...view, available: true, inputs: inputs.map((s) => s.view) },
    build: (ctx) => {
      const headersOut: Record<string, string> = {};
      for (const h of headers) {
        const [value] = fill(h.spec, ctx);
        if (value !== undefined) headersOut[h.name] = value;
      }
      const entry: Record<string, unknown> = {
        type: transport === 'sse' ? 'sse' : 'http',
        url: fill(url, ctx)[0] ?? '',
      };
      if (Object.keys(headersOut).length) entry.headers = headersOut;
      return entry;
    },
  };
}

/** One argument with how its value is made. */
interface ArgumentPlan {
  arg: Argument;
  spec?: ValueSpec;
}

function argumentSpec(arg: Argument, id: string): ArgumentPlan & { spec: ValueSpec } {
  const repeated = arg.isRepeated === true;
  if (arg.type === 'named') {
    const label = String(arg.name);
    // A bare flag (`--stdio`): nothing to ask and nothing to fill.
    if (isBareFlag(arg))
      return { arg, spec: { kind: 'template', template: '', vars: new Map(), required: true } };
    return { arg, spec: specOf(id, label, 'argument', arg, { repeated }) };
  }
  const label = arg.valueHint ?? `argument ${id.split('.').pop() ?? ''}`;
  return { arg, spec: specOf(id, label, 'argument', arg, { repeated }) };
}

function isBareFlag(arg: Argument): boolean {
  return (
    arg.value === undefined &&
    arg.isRequired !== true &&
    arg.default === undefined &&
    arg.choices === undefined &&
    arg.placeholder === undefined &&
    arg.format === undefined
  );
}

function renderArgument(plan: ArgumentPlan & { spec: ValueSpec }, ctx: FillContext): string[] {
  const { arg, spec } = plan;
  if (arg.type === 'positional') return fill(spec, ctx);
  if (isBareFlag(arg)) return [arg.name];
  const values = fill(spec, ctx);
  // A boolean flag is there or not (`--rm`), never `--rm true`.
  if (arg.format === 'boolean') return values.includes('true') ? [arg.name] : [];
  return values.flatMap((v) => [arg.name, v]);
}
