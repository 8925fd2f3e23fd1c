import type { Client } from '@modelcontextprotocol/client';
import type { Tool } from '../../../shared/domain/mcp-types.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import { loadServerLists, type ServerLists } from '../catalog/server-catalog.js';
import { toHostError } from '../util/errors.js';
import type { Redactor } from '../util/redact.js';
import type { ServerOutput } from './server-output.js';

/** What loading one connection's lists needs from it. */
export interface ListLoadContext {
  config: ServerConfig;
  timeout: number;
  output: ServerOutput;
  redactor: Redactor;
  /** A good tools/list, whole (before filters), for tool pins (see ConnectionDeps.onToolsListed). */
  onToolsListed?: (tools: readonly Tool[], config: ServerConfig) => void;
}

/**
 * Load a connection's lists. A failed list is logged and told to `onError` (a sign-in wall, a
 * timeout); a good tools/list goes to onToolsListed unless the session went `stale` meanwhile.
 */
export function loadConnectionLists(
  ctx: ListLoadContext,
  client: Client,
  stale: () => boolean,
  onError?: (e: unknown, what: string) => void,
): Promise<ServerLists> {
  const { config, onToolsListed } = ctx;
  const onTools = onToolsListed && ((tools: Tool[]) => !stale() && onToolsListed(tools, config));
  return loadServerLists(client, config, ctx.timeout, onTools, (what, error) => {
    onError?.(error, what);
    ctx.output.note(`${what} failed: ${toHostError(error, ctx.redactor).message}`);
  });
}

/**
 * The SDK's list_changed options for one session: every change reloads all lists at once
 * (autoRefresh off: one full reload keeps filters and templates consistent).
 */
export function listChangedOptions(refresh: () => void) {
  const opts = { autoRefresh: false, onChanged: refresh };
  return { tools: opts, prompts: opts, resources: opts };
}
