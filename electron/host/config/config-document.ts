import {
  serverConfigSchema,
  serverNameSchema,
  type ServerConfig,
} from '../../../shared/domain/server-config.js';
import { describeIssues } from '../util/errors.js';

/** One server entry as read from the file: valid and parsed, or invalid with its reason. */
export type ConfigEntry =
  { name: string; ok: true; config: ServerConfig } | { name: string; ok: false; error: string; raw: unknown };

/** The whole document; keys other than the server map are preserved on save. */
export interface ConfigDocument {
  entries: ConfigEntry[];
  /** Other top-level keys of the file (claude_desktop_config.json carries more than servers). */
  rest: Record<string, unknown>;
  /** Which key held the servers: `mcpServers` (Claude Desktop) or `servers` (VS Code). */
  key: 'mcpServers' | 'servers';
}

/** Parse one entry, naming the server and the field in the error. */
export function parseEntry(name: string, raw: unknown): ConfigEntry {
  const nameCheck = serverNameSchema.safeParse(name);
  if (!nameCheck.success)
    return { name, ok: false, error: `server "${name}": ${describeIssues(nameCheck.error.issues)}`, raw };
  const normalised = normaliseVsCode(raw);
  const parsed = serverConfigSchema.safeParse(normalised);
  if (parsed.success) return { name, ok: true, config: parsed.data };
  return {
    name,
    ok: false,
    error: `server "${name}": ${describeEntryIssues(normalised, parsed.error.issues)}`,
    raw,
  };
}

/** Parse a whole document. Throws only when the text is not a JSON object at all. */
export function parseDocument(text: string): ConfigDocument {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`the config is not valid JSON: ${(error as Error).message}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new Error('the config must be a JSON object with an "mcpServers" map');
  }
  const obj = json as Record<string, unknown>;
  const key = 'mcpServers' in obj || !('servers' in obj) ? 'mcpServers' : 'servers';
  const servers = obj[key] ?? {};
  const rest = { ...obj };
  delete rest[key];
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    throw new Error(`"${key}" must be an object mapping names to server entries`);
  }
  const entries = Object.entries(servers as Record<string, unknown>).map(([name, raw]) =>
    parseEntry(name, raw),
  );
  return { entries, rest, key };
}

/** Render a document back to text; invalid entries are written back exactly as they were. */
export function serialiseDocument(doc: ConfigDocument): string {
  const servers: Record<string, unknown> = {};
  for (const e of doc.entries) servers[e.name] = e.ok ? e.config : e.raw;
  return `${JSON.stringify({ ...doc.rest, [doc.key]: servers }, null, 2)}\n`;
}

/** VS Code's mcp.json writes `"type": "stdio"` and `"type": "http"`; both map onto our schema. */
function normaliseVsCode(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const r = raw as Record<string, unknown>;
  if (r.type === 'streamable-http') return { ...r, type: 'http' };
  return r;
}

/** The union's issues are noisy; report against the branch the entry was meant to be. */
function describeEntryIssues(
  raw: unknown,
  issues: { path: PropertyKey[]; message: string; code?: string }[],
): string {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return 'entry must be an object';
  const r = raw as Record<string, unknown>;
  if (!('command' in r) && !('url' in r)) return 'entry needs either "command" (stdio) or "url" (http/sse)';
  const branch = 'command' in r ? serverConfigSchema.options[0] : serverConfigSchema.options[1];
  const again = branch.safeParse(raw);
  if (!again.success) return describeIssues(again.error.issues);
  return describeIssues(issues);
}
