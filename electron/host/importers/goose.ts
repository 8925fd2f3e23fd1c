import { parse as parseYaml } from 'yaml';
import { EntryReader, parsed, passThrough, put } from './entry-reader.js';
import {
  ImportFileError,
  appData,
  isObj,
  joinFor,
  secretNameFor,
  userFile,
  xdgConfig,
  type HostImporter,
  type ParsedInput,
  type ParsedServer,
} from './importer.js';

/**
 * Goose (docs: block.github.io/goose/docs/guides/config-files; shapes from `ExtensionConfig` in
 * block/goose `crates/goose/src/agents/extension.rs`): `extensions` in `config.yaml`,
 * `~/.config/goose/` on macOS and Linux (`$XDG_CONFIG_HOME/goose` when set),
 * `%APPDATA%\Block\goose\config\` on Windows. Each extension has a `type`: `stdio`
 * (`cmd`, `args`, `envs`), `streamable_http` or `sse` (`uri`, `headers`); `enabled`, a `timeout`
 * in seconds and `available_tools`. `env_keys` name variables whose values Goose keeps in the
 * system keyring, out of our reach: they become secrets for the person to enter. Built-in,
 * platform and frontend extensions are parts of Goose itself and are not listed.
 */

type Obj = Record<string, unknown>;

/** Goose's own extensions: nothing to bring over. */
const GOOSE_PARTS = new Set(['builtin', 'platform', 'frontend']);

function parseYamlFile(text: string): unknown {
  try {
    return parseYaml(text);
  } catch (error) {
    // The first line names the problem and its place; the next ones quote the file, maybe a token.
    const first = (error as Error).message.split('\n')[0]?.replace(/:$/, '') ?? 'unreadable';
    throw new ImportFileError(`not valid YAML: ${first}`);
  }
}

/** `envs`, plus each `env_keys` name as a secret to enter (Goose keeps those values in its keyring). */
function environment(r: EntryReader, entry: Obj): ParsedInput[] {
  const env = r.map('envs') ?? {};
  const keys = r.list('env_keys') ?? [];
  const remote = entry.url !== undefined;
  if (remote && keys.length > 0)
    r.note('"env_keys" is not carried over: environment variables apply to local servers only.');
  const inputs = remote
    ? []
    : keys.map((key) => {
        const secretName = secretNameFor(key);
        env[key] = `\${secret:${secretName}}`;
        return { secretName, from: `env.${key}`, description: 'Goose keeps this value in its keyring' };
      });
  if (Object.keys(env).length > 0) entry.env = env;
  return inputs;
}

function readExtension(key: string, raw: unknown): ParsedServer | undefined {
  if (!isObj(raw)) return passThrough(key, raw);
  const type = raw.type;
  if (typeof type === 'string' && GOOSE_PARTS.has(type)) return undefined;
  const r = new EntryReader(raw);
  const entry: Obj = {};
  r.take('type');
  r.ignore('name', 'description', 'display_name', 'bundled');
  if (type === 'stdio') {
    put(entry, 'command', r.str('cmd'));
    put(entry, 'args', r.list('args'));
  } else if (type === 'streamable_http' || type === 'sse') {
    put(entry, 'url', r.str('uri'));
    entry.type = type === 'sse' ? 'sse' : 'http';
    put(entry, 'headers', r.map('headers'));
  } else {
    r.ignore(...Object.keys(raw));
    const why =
      type === 'inline_python'
        ? 'It is inline Python code run by Goose, not a server command: save the code as a script to add it.'
        : `Its type "${String(type)}" is not one MCP Desk knows.`;
    r.note(why);
    return parsed(key, entry, r, { unsupported: why });
  }
  const inputs = environment(r, entry);
  if (r.bool('enabled') === false) entry.disabled = true;
  put(entry, 'timeout', r.timeout('timeout', r.num('timeout'), 's'));
  const tools = r.list('available_tools');
  if (tools && tools.length > 0) entry.includeTools = tools;
  r.drop('cwd', 'Goose runs it from its own working folder.');
  return parsed(key, entry, r, { inputs });
}

/** Goose: the extensions of config.yaml. */
export const goose: HostImporter = {
  id: 'goose',
  label: 'Goose',
  files(ctx) {
    const join = joinFor(ctx);
    if (ctx.platform === 'win32')
      return [userFile(ctx, appData(ctx), 'Block', 'goose', 'config', 'config.yaml')];
    const base = ctx.platform === 'darwin' ? join(ctx.home, '.config') : xdgConfig(ctx);
    return [userFile(ctx, base, 'goose', 'config.yaml')];
  },
  parse(text) {
    const doc = parseYamlFile(text);
    if (doc === null || doc === undefined) return [];
    if (!isObj(doc)) throw new ImportFileError('the file is not a YAML map of settings');
    const map = doc.extensions;
    if (map === undefined || map === null) return [];
    if (!isObj(map)) throw new ImportFileError('"extensions" is not a map of extensions');
    return Object.entries(map)
      .map(([key, raw]) => readExtension(key, raw))
      .filter((s): s is ParsedServer => s !== undefined);
  },
};
