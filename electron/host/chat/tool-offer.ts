import type { CatalogSnapshot, CatalogTool } from '../../../shared/domain/catalog.js';
import type { ChatMessage, ChatSettings } from '../../../shared/domain/chat.js';
import type { CallToolResult, Tool } from '../../../shared/domain/mcp-types.js';
import type { ToolWarning } from '../../../shared/domain/tool-trust.js';
import { modelMayCall } from '../../../shared/domain/mcp-apps.js';
import type { OfferOverrides, OfferReport } from '../../../shared/domain/tool-selection.js';
import type { ModelTool } from './provider.js';
import { qualifyToolNames } from './tool-names.js';

/** The tools a model is offered for one turn, and how to map its calls back. */
export interface ToolOfferPlan {
  tools: ModelTool[];
  byName: Map<string, { serverId: string; tool: Tool; warnings?: ToolWarning[] }>;
  warnings: string[];
  limit: number;
  enabledCount: number;
  /** The host's search tool, when the offer is bounded (tool-selection/run-offer.ts): run in the host, no approval. */
  search?: { name: string; run(args: Record<string, unknown>): Promise<CallToolResult> };
  /** What the next request declares and why; `tools` and this are replaced together when a search adds tools. */
  report?: OfferReport;
}

/**
 * Plans each run's offer (electron/host/tool-selection/ implements it): the chat hands over the
 * conversation and the provider's cap, and receives the offer.
 */
export interface OfferPlanner {
  planRun(input: {
    settings: ChatSettings;
    overrides?: OfferOverrides;
    cap: number;
    messages: readonly ChatMessage[];
  }): Promise<ToolOfferPlan>;
  /** Tokens each server's enabled tools would cost if all were declared. */
  tokensByServer(settings: ChatSettings): Record<string, number>;
}

/** localeCompare's order, without building a collator per comparison (2,000 tools sort in well under a ms). */
const collator = new Intl.Collator();

/** The key settings use for one tool. */
export const toolKey = (serverId: string, tool: string) => `${serverId}/${tool}`;

/**
 * Build the offer from the live catalog: enabled servers and tools only, never a tool whose
 * MCP Apps visibility leaves out the model (`_meta.ui.visibility: ["app"]`), names made
 * provider-safe and reversible. Past the provider's limit the rest are left out with a
 * warning a person can act on, rather than failing the whole request.
 */
export function buildToolOffer(
  catalog: CatalogSnapshot,
  settings: ChatSettings,
  limit: number,
): ToolOfferPlan {
  const disabledServers = new Set(settings.disabledServers);
  const disabledTools = new Set(settings.disabledTools);
  const enabled = catalog.tools
    .filter(
      (t) =>
        t.enabled &&
        modelMayCall(t.tool) &&
        !disabledServers.has(t.serverId) &&
        !disabledTools.has(toolKey(t.serverId, t.tool.name)),
    )
    .sort((a, b) => collator.compare(a.serverId, b.serverId) || collator.compare(a.tool.name, b.tool.name));
  const warnings: string[] = [];
  const kept = enabled.slice(0, limit);
  if (enabled.length > limit) {
    warnings.push(
      `${enabled.length} tools are enabled but the model accepts at most ${limit}: ${enabled.length - limit} were left out. Disable servers or tools you do not need in Settings.`,
    );
  }
  const names = qualifyToolNames(kept.map((t) => ({ serverId: t.serverId, name: t.tool.name })));
  // The first tool of a (server, name) pair wins, as the qualified names fold duplicates into one.
  const entries = new Map<string, CatalogTool>();
  for (const t of kept) {
    const key = `${t.serverId}\u0000${t.tool.name}`;
    if (!entries.has(key)) entries.set(key, t);
  }
  const byName: ToolOfferPlan['byName'] = new Map();
  const tools: ModelTool[] = [];
  for (const [qualified, origin] of names) {
    const entry = entries.get(`${origin.serverId}\u0000${origin.tool}`);
    if (!entry) continue;
    const warnings = entry.trust?.warnings;
    byName.set(qualified, {
      serverId: entry.serverId,
      tool: entry.tool,
      ...(warnings?.length ? { warnings } : {}),
    });
    const title = entry.tool.title ?? entry.tool.annotations?.title;
    tools.push({
      name: qualified,
      description:
        `${title ? `${title}: ` : ''}${entry.tool.description ?? ''} (tool "${entry.tool.name}" of MCP server "${entry.serverId}")`.trim(),
      inputSchema: entry.tool.inputSchema,
    });
  }
  return { tools, byName, warnings, limit, enabledCount: enabled.length };
}
