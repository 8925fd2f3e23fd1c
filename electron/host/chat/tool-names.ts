import { createHash } from 'node:crypto';

/**
 * Model-facing tool names. Every provider restricts function names, and MCP tool names are
 * only unique per server, so each tool is offered as `server__tool`, made valid for every
 * provider we speak:
 *   Gemini  ^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$   (FunctionDeclaration.name)
 *   OpenAI  ^[a-zA-Z0-9_-]{1,64}$              (tools[].function.name)
 * whose intersection is NAME_PATTERN below. Sanitising and truncation can make two tools
 * collide, so the mapping is kept as data (a Map) rather than parsed back from the name.
 */

/** Where a model-facing name came from. */
export interface ToolOrigin {
  serverId: string;
  tool: string;
}

/** The name rule shared by Gemini and OpenAI-compatible APIs. */
export const NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

const MAX_LENGTH = 64;
const HASH_LENGTH = 8;

/**
 * Qualify tool names: qualified name -> origin. Deterministic for a set of tools regardless
 * of input order (the input is sorted first), so a conversation's history keeps naming the
 * same tools across turns. Duplicate (serverId, name) pairs are folded into one entry.
 */
export function qualifyToolNames(
  tools: readonly { serverId: string; name: string }[],
): Map<string, ToolOrigin> {
  const unique = new Map<string, ToolOrigin>();
  for (const t of tools) unique.set(originKey(t.serverId, t.name), { serverId: t.serverId, tool: t.name });
  const origins = [...unique.values()].sort(compareOrigins);

  const candidates = new Map<string, ToolOrigin[]>();
  for (const origin of origins) {
    const name = candidateName(origin);
    const group = candidates.get(name);
    if (group) group.push(origin);
    else candidates.set(name, [origin]);
  }

  const result = new Map<string, ToolOrigin>();
  const collided: ToolOrigin[] = [];
  for (const [name, group] of candidates) {
    if (group.length === 1) result.set(name, group[0]);
    else collided.push(...group);
  }
  // Every member of a colliding group gets a hash suffix (not "first one wins"), so a tool's
  // name does not depend on which of its namesakes sorts first. A hashed name can in turn
  // meet a plain one (a tool literally named like it): salt until free, in sorted order.
  for (const origin of collided.sort(compareOrigins)) {
    let salt = 0;
    let name = hashedName(sanitize(rawName(origin)), origin, salt);
    while (result.has(name)) name = hashedName(sanitize(rawName(origin)), origin, ++salt);
    result.set(name, origin);
  }
  return new Map([...result.entries()].sort(([a], [b]) => compareStrings(a, b)));
}

/** Reverse lookup: the qualified name a mapping gave to one server's tool. */
export function qualifiedNameOf(
  names: ReadonlyMap<string, ToolOrigin>,
  serverId: string,
  tool: string,
): string | undefined {
  for (const [qualified, origin] of names) {
    if (origin.serverId === serverId && origin.tool === tool) return qualified;
  }
  return undefined;
}

/** Whether a name is acceptable to every provider we speak. */
export function isValidToolName(name: string): boolean {
  return NAME_PATTERN.test(name);
}

function candidateName(origin: ToolOrigin): string {
  const clean = sanitize(rawName(origin));
  return clean.length <= MAX_LENGTH ? clean : hashedName(clean, origin, 0);
}

function rawName(origin: ToolOrigin): string {
  return `${origin.serverId}__${origin.tool}`;
}

/** Replace every code point outside [a-zA-Z0-9_-] by `_`; a leading digit or dash gets a `_` prefix. */
function sanitize(raw: string): string {
  // The `u` flag makes an astral character (an emoji) one match, so it becomes one `_`.
  const out = raw.replace(/[^a-zA-Z0-9_-]/gu, '_');
  return /^[a-zA-Z_]/.test(out) ? out : `_${out}`;
}

/** Truncate to leave room for `_` + hash; the hash is of the raw origin, so it is stable and distinct. */
function hashedName(clean: string, origin: ToolOrigin, salt: number): string {
  const hash = createHash('sha256')
    .update(`${origin.serverId}\u0000${origin.tool}${salt ? `\u0000${salt}` : ''}`)
    .digest('hex')
    .slice(0, HASH_LENGTH);
  return `${clean.slice(0, MAX_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}

function originKey(serverId: string, tool: string): string {
  return `${serverId}\u0000${tool}`;
}

function compareOrigins(a: ToolOrigin, b: ToolOrigin): number {
  return compareStrings(a.serverId, b.serverId) || compareStrings(a.tool, b.tool);
}

/** Code-unit order, not localeCompare: the mapping must not depend on the machine's locale. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
