import type { Client } from '@modelcontextprotocol/client';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../../../shared/domain/mcp-types.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import { toolFilter } from './tool-filter.js';

/** What one connected server offers, refreshed on list_changed. */
export interface ServerLists {
  tools: Tool[];
  resources: Resource[];
  templates: ResourceTemplate[];
  prompts: Prompt[];
}

export const emptyLists = (): ServerLists => ({ tools: [], resources: [], templates: [], prompts: [] });

/**
 * Fetch every list the server advertised a capability for. The SDK walks pages itself
 * (nextCursor) and caps runaway pagination. A list that fails is reported and left empty
 * rather than failing the connection: a server with broken prompts still has tools.
 */
export async function fetchLists(
  client: Client,
  timeout: number,
  onError: (what: string, error: unknown) => void,
): Promise<ServerLists> {
  const caps = client.getServerCapabilities() ?? {};
  const opts = { timeout };
  const guard = async <T>(what: string, enabled: unknown, fn: () => Promise<T[]>): Promise<T[]> => {
    if (!enabled) return [];
    try {
      return await fn();
    } catch (error) {
      onError(what, error);
      return [];
    }
  };
  const [tools, resources, templates, prompts] = await Promise.all([
    guard('tools/list', caps.tools, async () => (await client.listTools(undefined, opts)).tools as Tool[]),
    guard(
      'resources/list',
      caps.resources,
      async () => (await client.listResources(undefined, opts)).resources as Resource[],
    ),
    guard(
      'resources/templates/list',
      caps.resources,
      async () =>
        (await client.listResourceTemplates(undefined, opts)).resourceTemplates as ResourceTemplate[],
    ),
    guard(
      'prompts/list',
      caps.prompts,
      async () => (await client.listPrompts(undefined, opts)).prompts as Prompt[],
    ),
  ]);
  return { tools, resources, templates, prompts };
}

/**
 * A server's lists as the host offers them: fetched (paged) and cut by its include/exclude
 * filters. `onTools` hears of the whole tool list, before the filters, and only when the
 * server has tools and its tools/list succeeded (a failed list says nothing about which exist).
 */
export async function loadServerLists(
  client: Client,
  config: ServerConfig,
  timeout: number,
  onTools: ((tools: Tool[]) => void) | undefined,
  onError: (what: string, error: unknown) => void,
): Promise<ServerLists> {
  let toolsFailed = false;
  const lists = await fetchLists(client, timeout, (what, error) => {
    if (what === 'tools/list') toolsFailed = true;
    onError(what, error);
  });
  if (onTools && !toolsFailed && client.getServerCapabilities()?.tools) onTools(lists.tools);
  const allowed = toolFilter(config);
  return { ...lists, tools: lists.tools.filter((t) => allowed(t.name)) };
}
