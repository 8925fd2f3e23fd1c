import type { Tool } from '../../../shared/domain/mcp-types.js';

/** What the index knows of a server besides its tools (from the connection's serverInfo). */
export interface ServerText {
  name?: string;
  title?: string;
  description?: string;
  instructions?: string;
}

/** One tool as the lexical index stores it: a text per field. */
export interface ToolDocument {
  /** `serverId/tool`: the key every part of tool selection uses. */
  id: string;
  serverId: string;
  tool: string;
  name: string;
  title: string;
  description: string;
  params: string;
  server: string;
}

/** Caps keep a hostile server's 100 kB description from dominating the index or its memory. */
const MAX_DESCRIPTION = 1500;
const MAX_PARAMS = 1000;
const MAX_SERVER = 1500;

/** The key of one tool in tool selection. */
export const selectionKey = (serverId: string, tool: string) => `${serverId}/${tool}`;

/** The fields of one tool: its names split into words, its prose, its parameters' names and descriptions. */
export function toolDocument(serverId: string, tool: Tool, server: ServerText = {}): ToolDocument {
  const title = tool.title ?? tool.annotations?.title ?? '';
  return {
    id: selectionKey(serverId, tool.name),
    serverId,
    tool: tool.name,
    name: tool.name,
    title,
    description: (tool.description ?? '').slice(0, MAX_DESCRIPTION),
    params: paramsText(tool.inputSchema).slice(0, MAX_PARAMS),
    server: [serverId, server.name, server.title, server.description, server.instructions]
      .filter((s): s is string => Boolean(s))
      .join(' ')
      .slice(0, MAX_SERVER),
  };
}

/** Property names and descriptions, one level into nested objects and array items. */
function paramsText(schema: unknown, depth = 0): string {
  if (!isObject(schema) || depth > 2) return '';
  const parts: string[] = [];
  const props = schema.properties;
  if (isObject(props)) {
    for (const [name, value] of Object.entries(props)) {
      parts.push(name);
      if (isObject(value)) {
        if (typeof value.description === 'string') parts.push(value.description);
        if (typeof value.title === 'string') parts.push(value.title);
        parts.push(paramsText(value, depth + 1));
        if (isObject(value.items)) parts.push(paramsText(value.items, depth + 1));
      }
    }
  }
  return parts.filter(Boolean).join(' ');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
