/**
 * Tool selection: which of the enabled tools a model request declares (the offer), why, and
 * what it costs. Computed by the host (electron/host/tool-selection/); shown by the chat, the
 * Tools view and Servers › Info; printed by `mcp-desk offer` and `mcp-desk tools --search`.
 */

/** "all": today's behaviour, every enabled tool up to the provider's cap; "search": a bounded core plus a search tool. */
export type OfferMode = 'search' | 'all';

/** The budget of one model request's tool declarations. */
export interface OfferBudget {
  mode: OfferMode;
  /** At most this many tools declared (the search tool not counted), never over the provider's cap. */
  maxTools: number;
  /** At most about this many tokens of declarations (characters / 4). */
  maxTokens: number;
}

/** A conversation's own budget, over the chat settings (absent fields follow them). */
export type OfferOverrides = Partial<OfferBudget>;

/** The defaults a person gets. */
export const DEFAULT_OFFER_BUDGET: Readonly<OfferBudget> = Object.freeze({
  mode: 'search',
  maxTools: 32,
  maxTokens: 8000,
});

/** Why a tool is declared. */
export type OfferReason =
  /** A person marked it "always offer". */
  | 'pinned'
  /** It was already called in this conversation. */
  | 'used'
  /** It ranked high for the conversation so far. */
  | 'hit'
  /** The model found it with the search tool during this run. */
  | 'found'
  /** Mode "all": every enabled tool, in name order. */
  | 'all';

/** One declared tool. */
export interface OfferedTool {
  /** The name the model sees. */
  name: string;
  serverId: string;
  tool: string;
  reason: OfferReason;
  /** For `found`: the words the model searched for. */
  query?: string;
  /** Its declaration's size in tokens (characters / 4). */
  tokens: number;
}

/** What one model request declares. */
export interface OfferReport {
  mode: OfferMode;
  tools: OfferedTool[];
  /** The search tool's name when it is declared (search mode with more tools enabled than fit). */
  searchTool?: string;
  /** All declarations together, the search tool's included, in tokens. */
  tokens: number;
  enabledCount: number;
  maxTools: number;
  maxTokens: number;
  /** The provider's own limit on declarations per request. */
  cap: number;
}

/** One tool a search found, with the evidence behind its rank. */
export interface ToolSearchHit {
  serverId: string;
  tool: string;
  title?: string;
  /** The first line of its description. */
  line: string;
  score: number;
  reason: 'match' | 'implied' | 'sibling';
  /** The (stemmed) words of the query it matched. */
  terms: string[];
  /** Where semantic ranking took part: its rank there (1 = best), absent when it was not among the nearest. */
  semanticRank?: number;
  /** Its trust warnings' reasons (poisoning, shadowing), shown beside it. */
  warnings?: string[];
  /** Its definition changed since pinned and awaits review: the chat never offers it by search. */
  awaitingReview?: boolean;
}
