import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { formatCount, LIMITS } from '../util/limits.js';

/**
 * Cleans tools/list answers before the SDK validates them. The SDK checks a page as a whole,
 * so one tool without a name (or with an input schema that is not an object) would cost every
 * tool of the server; here the bad tool alone is dropped, with a note naming it. It also caps
 * how many tools one server may list (over all pages) and clips huge descriptions.
 */
export class ListGuard {
  /** Ids of our tools/list requests in flight, and whether each asked for a first page. */
  private readonly toolLists = new Map<string | number, boolean>();
  private listed = 0;
  private capNoted = false;

  constructor(private readonly note: (text: string) => void) {}

  /** Watch what we send: which request ids are tools/list. */
  outgoing(message: JSONRPCMessage): void {
    if (!('method' in message) || message.method !== 'tools/list' || !('id' in message)) return;
    const params = (message as { params?: { cursor?: unknown } }).params;
    // Bounded by the requests the SDK has in flight: each entry leaves with its response.
    this.toolLists.set(message.id, params?.cursor === undefined);
  }

  /** Fix what arrives: a tools/list result is cleaned in place. */
  incoming(message: JSONRPCMessage): void {
    if ('method' in message || !('id' in message) || message.id === undefined) return;
    const first = this.toolLists.get(message.id);
    if (first === undefined) return;
    this.toolLists.delete(message.id);
    const result = (message as { result?: { tools?: unknown; nextCursor?: unknown } }).result;
    if (!result || !Array.isArray(result.tools)) return;
    if (first) {
      this.listed = 0;
      this.capNoted = false;
    }
    const kept: unknown[] = [];
    let dropped = 0;
    for (const [i, tool] of result.tools.entries()) {
      const why = problemOf(tool);
      if (why) {
        if (dropped++ < 20) this.note(`tools/list: dropped tool #${this.listed + i + 1}: ${why}`);
        continue;
      }
      clipDescription(tool as { description?: unknown });
      kept.push(tool);
    }
    if (dropped > 20) this.note(`tools/list: dropped ${formatCount(dropped - 20, 'more invalid tools')}`);
    const room = LIMITS.toolsPerServer - this.listed;
    if (kept.length > room) {
      if (!this.capNoted)
        this.note(
          `tools/list: this server lists more than ${formatCount(LIMITS.toolsPerServer, 'tools')}; MCP Desk keeps the first ${formatCount(LIMITS.toolsPerServer, 'tools')} (truncated)`,
        );
      this.capNoted = true;
      kept.length = Math.max(0, room);
      // No point fetching pages that would all be cut.
      delete result.nextCursor;
    }
    this.listed += kept.length;
    result.tools = kept;
  }
}

/** Why the SDK (or anyone) could not use this tool; undefined when it is fine. */
function problemOf(tool: unknown): string | undefined {
  if (!isObject(tool)) return 'it is not an object';
  const name = tool.name;
  if (typeof name !== 'string' || name.length === 0) return 'it has no name';
  const label = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  if (name.length > LIMITS.toolNameChars)
    return `${label}: its name is ${formatCount(name.length, 'characters')} long (limit ${LIMITS.toolNameChars})`;
  const schema = tool.inputSchema;
  if (!isObject(schema) || schema.type !== 'object')
    return `${label}: its inputSchema is not a JSON Schema of type "object"`;
  if (schema.properties !== undefined && !isObject(schema.properties))
    return `${label}: its inputSchema.properties is not an object`;
  if (
    schema.required !== undefined &&
    !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string'))
  )
    return `${label}: its inputSchema.required is not a list of names`;
  if (tool.outputSchema !== undefined && !isObject(tool.outputSchema))
    return `${label}: its outputSchema is not an object`;
  return undefined;
}

function clipDescription(tool: { description?: unknown }): void {
  const d = tool.description;
  if (typeof d === 'string' && d.length > LIMITS.toolDescriptionChars)
    tool.description = `${d.slice(0, LIMITS.toolDescriptionChars)}… (truncated by MCP Desk: ${formatCount(d.length, 'characters')})`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
