import { EntryReader, parsed, passThrough, put } from './entry-reader.js';
import {
  ImportFileError,
  appData,
  isObj,
  joinFor,
  parseJsoncFile,
  projectFiles,
  userFile,
  xdgConfig,
  type HostImporter,
  type ParsedServer,
} from './importer.js';

/**
 * Zed (docs: zed.dev/docs/ai/mcp; shapes from `ContextServerSettingsContent` in its source):
 * `context_servers` in `settings.json` (JSON with comments), `~/.config/zed/` on Linux and macOS
 * (`$XDG_CONFIG_HOME/zed` when set), `%APPDATA%\Zed\` on Windows, and a project's
 * `.zed/settings.json`. A custom server is `{command, args, env}` (older files add
 * `"source": "custom"`, the oldest nest `"command": {path, args, env}`), a remote one
 * `{url, headers}`; `enabled: false` switches it off and `timeout` is in seconds. A server
 * provided by a Zed extension (`"source": "extension"` or just `settings`) has no command here.
 */

type Obj = Record<string, unknown>;

/** The oldest shape: `"command": {"path", "args", "env"}`. */
function nestedCommand(r: EntryReader, entry: Obj, command: Obj): void {
  const inner = new EntryReader(command);
  put(entry, 'command', inner.str('path'));
  put(entry, 'args', inner.list('args'));
  put(entry, 'env', inner.map('env'));
  put(entry, 'timeout', inner.timeout('timeout', inner.num('timeout'), 's'));
  for (const sentence of inner.finish()) r.note(sentence.replace(/^"/, '"command.'));
}

function readServer(name: string, raw: unknown): ParsedServer {
  if (!isObj(raw)) return passThrough(name, raw);
  const r = new EntryReader(raw);
  const entry: Obj = {};
  const source = r.str('source');
  const command = r.take('command');
  const url = r.str('url');
  if (source === 'extension' || (command === undefined && url === undefined && r.has('settings'))) {
    r.ignore(...Object.keys(raw));
    const why =
      "It is provided by a Zed extension, which holds its command: add it from the server's own instructions.";
    r.note(why);
    return parsed(name, entry, r, { unsupported: why });
  }
  if (isObj(command)) nestedCommand(r, entry, command);
  else if (typeof command === 'string') {
    entry.command = command;
    put(entry, 'args', r.list('args'));
    put(entry, 'env', r.map('env'));
  } else if (command !== undefined) r.note('"command" is neither text nor an object, so it is left out.');
  if (url !== undefined) {
    entry.url = url;
    entry.type = 'http';
    put(entry, 'headers', r.map('headers'));
  }
  put(entry, 'timeout', r.timeout('timeout', r.num('timeout'), 's'));
  if (r.bool('enabled') === false) entry.disabled = true;
  r.drop('remote', 'MCP Desk runs servers on this machine only.');
  r.drop('settings', 'settings for a Zed extension have no meaning to the server itself.');
  return parsed(name, entry, r);
}

/** Zed: context_servers of the user and project settings.json. */
export const zed: HostImporter = {
  id: 'zed',
  label: 'Zed',
  files(ctx) {
    const base =
      ctx.platform === 'win32'
        ? joinFor(ctx)(appData(ctx), 'Zed')
        : ctx.platform === 'darwin'
          ? joinFor(ctx)(ctx.home, '.config', 'zed')
          : joinFor(ctx)(xdgConfig(ctx), 'zed');
    return [userFile(ctx, base, 'settings.json'), ...projectFiles(ctx, '.zed', 'settings.json')];
  },
  parse(text) {
    const doc = parseJsoncFile(text);
    if (!isObj(doc)) throw new ImportFileError('the file is not a JSON object');
    const map = doc.context_servers;
    if (map === undefined) return [];
    if (!isObj(map)) throw new ImportFileError('"context_servers" is not an object of servers');
    return Object.entries(map).map(([name, raw]) => readServer(name, raw));
  },
};
