import type { ImportResult } from '../../../shared/ipc/contract.js';

/**
 * What the import panel needs to know before and after the host reads a pasted config: whether
 * it is one server without a name (the panel then asks for one), and, when nothing was added,
 * why in one sentence. The host does the real parsing (electron/host/config/import-document.ts).
 */

/** A pasted text as the panel sees it. */
export type PastedShape =
  | { kind: 'empty' }
  /** One server object (`{"command": …}` or `{"url": …}`): it needs a name. */
  | { kind: 'single'; suggestedName: string }
  /** Anything else: the host reads it, or says what shape it expected. */
  | { kind: 'document' };

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A name to offer for a nameless server: the package or program it runs, or the URL's host. */
function nameFor(server: Record<string, unknown>): string {
  const args = Array.isArray(server.args)
    ? server.args.filter((a): a is string => typeof a === 'string')
    : [];
  const pkg = args.find((a) => !a.startsWith('-'));
  const source =
    typeof server.url === 'string'
      ? hostOf(server.url)
      : (pkg ?? (typeof server.command === 'string' ? server.command : ''));
  const last = source.split(/[/\\]/).filter(Boolean).pop() ?? '';
  const name = last
    .replace(/@[^@]*$/, '')
    .replace(/^server-|^mcp-server-|\.m?js$/g, '')
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '');
  return name.slice(0, 40) || 'server';
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.split('.')[0] ?? '';
  } catch {
    return '';
  }
}

/** Whether a pasted text is empty, one nameless server, or a document for the host. */
export function pastedShape(text: string): PastedShape {
  if (!text.trim()) return { kind: 'empty' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'document' };
  }
  if (isObj(json) && (typeof json.command === 'string' || typeof json.url === 'string'))
    return { kind: 'single', suggestedName: nameFor(json) };
  return { kind: 'document' };
}

/**
 * The server names a pasted document holds, read the way the host reads it (each then gets its
 * own dry run); none when it is not JSON or has no server map (the host's import says why).
 */
export function pastedNames(text: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  if (!isObj(json)) return [];
  const map = isObj(json.mcpServers)
    ? json.mcpServers
    : isObj(json.servers)
      ? json.servers
      : isObj(json.mcp) && isObj(json.mcp.servers)
        ? json.mcp.servers
        : json;
  const isServer = (v: unknown) => isObj(v) && (typeof v.command === 'string' || typeof v.url === 'string');
  return Object.entries(map)
    .filter(([, v]) => isServer(v))
    .map(([name]) => name);
}

/** One nameless server wrapped as a document the host reads: `{"mcpServers": {name: server}}`. */
export function wrapSingle(text: string, name: string): string {
  return JSON.stringify({ mcpServers: { [name]: JSON.parse(text) as unknown } });
}

/** Why nothing was added, in one sentence; undefined when something was. */
export function nothingAddedReason(result: ImportResult): string | undefined {
  if (result.added.length > 0) return undefined;
  const n = result.skipped.length;
  if (n === 0) return 'No servers were found in the text.';
  const exists = result.skipped.filter((s) => /already exists/.test(s.reason)).length;
  if (exists === n)
    return n === 1 ? 'Nothing added: that server already exists.' : `Nothing added: all ${n} already exist.`;
  if (exists === 0)
    return n === 1
      ? 'Nothing added: the server entry is not valid (see below).'
      : `Nothing added: none of the ${n} entries is valid (see below).`;
  return `Nothing added: ${exists} already exist and ${n - exists} are not valid (see below).`;
}
