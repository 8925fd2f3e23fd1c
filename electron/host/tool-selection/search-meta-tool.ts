import type { CallToolResult } from '../../../shared/domain/mcp-types.js';
import type { ToolSearchHit } from '../../../shared/domain/tool-selection.js';
import type { ModelTool } from '../chat/provider.js';

/**
 * The search tool the host declares beside a bounded offer. Its name fits every provider's
 * rule (tool-names.ts NAME_PATTERN) and cannot meet a server's tool: those are all
 * `server__tool`, with a double underscore.
 */
export const SEARCH_TOOL_NAME = 'search_tools';

/** How many hits one search returns unless the model asks for fewer or more. */
export const DEFAULT_SEARCH_LIMIT = 8;
export const MAX_SEARCH_LIMIT = 20;

/** The search tool's declaration: `declared` more tools are available than are declared now. */
export function searchToolDeclaration(hidden: number): ModelTool {
  return {
    name: SEARCH_TOOL_NAME,
    description:
      `Find more tools. ${hidden} connected tools are not declared yet. Describe what you need to do ` +
      '(for example "write a file", "current date", "convert docx to pdf"); the best matching tools are ' +
      'returned and become callable from your next step. Search again with other words if none fits.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the tool should do, in a few words.' },
        limit: {
          type: 'integer',
          description: `How many tools to return (default ${DEFAULT_SEARCH_LIMIT}, at most ${MAX_SEARCH_LIMIT}).`,
        },
      },
      required: ['query'],
    },
  };
}

/** The search tool's arguments, checked: a query is required, the limit is clamped. */
export function parseSearchArgs(args: Record<string, unknown>): { query: string; limit: number } | string {
  const query = typeof args.query === 'string' ? args.query.trim().slice(0, 500) : '';
  if (!query) return 'search_tools needs a "query": a few words saying what the tool should do.';
  const raw =
    typeof args.limit === 'number' && Number.isFinite(args.limit)
      ? Math.floor(args.limit)
      : DEFAULT_SEARCH_LIMIT;
  return { query, limit: Math.min(MAX_SEARCH_LIMIT, Math.max(1, raw)) };
}

/** One hit as the model reads it. */
export interface DeclaredHit extends ToolSearchHit {
  /** The name to call it by. */
  name: string;
  /** It could not be declared (the budget is full of tools a person pinned). */
  notDeclared?: boolean;
}

/** The search's result: one line per hit (name, server, what it does), warnings flagged; hits also as structured content. */
export function searchResult(query: string, hits: readonly DeclaredHit[]): CallToolResult {
  const lines = hits.map((h) => {
    const flags = [
      h.warnings?.length ? ` [warning: ${h.warnings.join('; ')}]` : '',
      h.notDeclared ? ' [not callable now: the tool budget is full]' : '',
    ].join('');
    return `- ${h.name} (server "${h.serverId}", tool "${h.tool}"): ${h.line}${flags}`;
  });
  const text = hits.length
    ? `Tools matching "${query}" (callable from your next step):\n${lines.join('\n')}`
    : `No tool matches "${query}". Try other words.`;
  return {
    content: [{ type: 'text', text }],
    structuredContent: { query, hits: hits.map((h) => ({ ...h })) },
  };
}
