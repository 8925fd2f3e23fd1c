import { HostFailure } from '../util/errors.js';
import { parseEntry, type ConfigEntry } from './config-document.js';

/**
 * Reading a pasted config for import. People paste what they have: Claude Desktop's
 * `{"mcpServers": {...}}`, VS Code's `{"servers": {...}}` (or its settings.json `{"mcp":
 * {"servers": ...}}`), or just the map of servers out of either. Anything else is refused with
 * the shapes we read, so "0 added" never happens without a reason.
 */

/** The shapes an import accepts, as the error shows them. */
export const IMPORT_SHAPES =
  'expected {"mcpServers": {"name": {"command": "…"}}} (Claude Desktop), {"servers": {…}} (VS Code), or a map of names to servers ({"name": {"command": "…"}} or {"name": {"url": "…"}})';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A value that reads as one server entry (the fields every format shares). */
export function looksLikeServer(v: unknown): boolean {
  return isObj(v) && (typeof v.command === 'string' || typeof v.url === 'string');
}

/** Where the server map sits in a parsed document, or why there is none. */
function serverMap(json: unknown): Obj {
  if (!isObj(json)) throw new HostFailure('import_invalid', `Not a JSON object — ${IMPORT_SHAPES}`);
  if ('mcpServers' in json || 'servers' in json) {
    const key = 'mcpServers' in json ? 'mcpServers' : 'servers';
    const map = json[key];
    if (!isObj(map))
      throw new HostFailure('import_invalid', `"${key}" must be an object mapping names to servers`);
    return map;
  }
  if (isObj(json.mcp) && isObj(json.mcp.servers)) return json.mcp.servers;
  if (looksLikeServer(json))
    throw new HostFailure(
      'import_invalid',
      'This is one server without a name — give it a name to import it',
      {
        hint: 'wrap it as {"my-server": { … }}, or paste it in the app, which asks for the name',
      },
    );
  const values = Object.values(json);
  if (values.length > 0 && values.every(isObj) && values.some(looksLikeServer)) return json;
  throw new HostFailure('import_invalid', `No servers found — ${IMPORT_SHAPES}`);
}

/** The entries of a pasted document, each parsed (an invalid one says why). Throws import_invalid. */
export function parseImport(text: string): ConfigEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HostFailure('import_invalid', `This is not valid JSON: ${(error as Error).message}`);
  }
  const map = serverMap(json);
  const entries = Object.entries(map).map(([name, raw]) => parseEntry(name, raw));
  if (entries.length === 0)
    throw new HostFailure('import_invalid', `The server map is empty — ${IMPORT_SHAPES}`);
  return entries;
}
