import type { CatalogSnapshot, CatalogTool } from '../../../shared/domain/catalog.js';
import type { ChatMessage, ChatSettings } from '../../../shared/domain/chat.js';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import {
  DEFAULT_OFFER_BUDGET,
  type OfferBudget,
  type OfferOverrides,
  type ToolSearchHit,
} from '../../../shared/domain/tool-selection.js';
import { ToolOfferCache } from '../chat/tool-offer-cache.js';
import type { ToolOfferPlan } from '../chat/tool-offer.js';
import { declarationTokens } from './declaration-tokens.js';
import { rankTools, type RankedTool } from './rank-tools.js';
import { RunOffer, type KeyedHit } from './run-offer.js';
import { selectionKey, type ServerText } from './tool-documents.js';
import { ToolIndex } from './tool-index.js';
import { toHostError } from '../util/errors.js';

/** Where tool selection reads the host's state. */
export interface SelectionSource {
  catalog(): CatalogSnapshot;
  list(): ServerSummary[];
}

/** Semantic ranking (embeddings), when configured: the ids of `candidates` nearest to `query`, best first. */
export interface SemanticRanker {
  nearest(
    query: string,
    candidates: readonly { id: string; text: string; fingerprint: string }[],
    settings: ChatSettings,
  ): Promise<string[]>;
}

/** Options of one search. */
export interface SearchOptions {
  limit: number;
  /** Only tools the chat may offer under these settings (enabled, not switched off). */
  settings?: ChatSettings;
  /** Keys to leave out. */
  exclude?: (id: string) => boolean;
  /** Semantic ranking may take part (the settings still decide whether it is on). */
  semantic?: boolean;
}

/** How far down each list reciprocal-rank fusion looks, and its damping constant. */
const FUSION_DEPTH = 60;
const RRF_K = 60;

/** The budget that holds for a conversation: its own values over the settings' over the defaults. */
export function offerBudget(settings: ChatSettings, overrides?: OfferOverrides): OfferBudget {
  return {
    mode: overrides?.mode ?? settings.offerMode ?? DEFAULT_OFFER_BUDGET.mode,
    maxTools: overrides?.maxTools ?? settings.offerMaxTools ?? DEFAULT_OFFER_BUDGET.maxTools,
    maxTokens: overrides?.maxTokens ?? settings.offerMaxCost ?? DEFAULT_OFFER_BUDGET.maxTokens,
  };
}

/**
 * Tool selection, one service for the agent loop, the Tools view and the CLI: the lexical
 * index over the live catalog (synced before every use, which costs only what changed), the
 * ranking, optional semantic ranking fused with it, and each run's bounded offer.
 */
export class ToolSelection {
  private readonly index = new ToolIndex();
  private readonly offers = new ToolOfferCache();
  private readonly serverTexts = new Map<string, { key: string; text: ServerText }>();
  /** Why the last semantic ranking failed (the search fell back to lexical), for the UI. */
  semanticError?: string;

  constructor(
    private readonly source: SelectionSource,
    private readonly semantic?: SemanticRanker,
  ) {}

  /** Bring the index in line with the catalog; returns the catalog it read and how many tools changed. */
  sync(): { catalog: CatalogSnapshot; changed: number } {
    const catalog = this.source.catalog();
    const servers = new Map<string, ServerText>();
    for (const s of this.source.list()) {
      if (s.state.kind !== 'connected') continue;
      const info = s.state.info;
      const key = [s.id, info.name, info.title, info.description, info.instructions].join('\u0000');
      // The same object while nothing changed, so the index skips the server's tools at once.
      let text = this.serverTexts.get(s.id);
      if (text?.key !== key) {
        text = {
          key,
          text: {
            name: info.name,
            ...(info.title ? { title: info.title } : {}),
            ...(info.description ? { description: info.description } : {}),
            ...(info.instructions ? { instructions: info.instructions } : {}),
          },
        };
        this.serverTexts.set(s.id, text);
      }
      servers.set(s.id, text.text);
    }
    const changed = this.index.sync(
      catalog.tools.map((t) => ({ serverId: t.serverId, tool: t.tool, server: servers.get(t.serverId) })),
    );
    return { catalog, changed };
  }

  /** Every enabled tool the chat may offer under `settings`, qualified (cached while nothing changed). */
  fullOffer(settings: ChatSettings, catalog = this.source.catalog()): ToolOfferPlan {
    return this.offers.offer(catalog, settings, Number.MAX_SAFE_INTEGER);
  }

  /** Ranked tools for a text, with why each ranks (the Tools view, `tools --search`, the search tool). */
  async search(query: string, options: SearchOptions): Promise<ToolSearchHit[]> {
    return (await this.searchKeyed(query, options)).map(({ id: _id, ...hit }) => hit);
  }

  private async searchKeyed(query: string, options: SearchOptions): Promise<KeyedHit[]> {
    const { catalog } = this.sync();
    const byKey = new Map(catalog.tools.map((t) => [selectionKey(t.serverId, t.tool.name), t]));
    let allowed: Set<string> | undefined;
    if (options.settings) {
      const full = this.fullOffer(options.settings, catalog);
      allowed = new Set([...full.byName.values()].map((o) => selectionKey(o.serverId, o.tool.name)));
    }
    const exclude = (id: string) =>
      (allowed !== undefined && !allowed.has(id)) || (options.exclude?.(id) ?? false);
    const useSemantic = options.semantic && this.semantic && options.settings?.semanticRanking;
    const depth = useSemantic ? Math.max(options.limit, FUSION_DEPTH) : options.limit;
    let ranked = rankTools(this.index, query, { limit: depth, exclude });
    let semanticRanks = new Map<string, number>();
    if (useSemantic && this.semantic && options.settings) {
      const candidates = [...byKey.entries()]
        .filter(([id]) => !exclude(id))
        .map(([id, t]) => ({ id, text: embeddingText(t), fingerprint: t.trust?.fingerprint ?? id }));
      try {
        const nearest = await this.semantic.nearest(query, candidates, options.settings);
        semanticRanks = new Map(nearest.slice(0, FUSION_DEPTH).map((id, i) => [id, i + 1]));
        ranked = fuse(ranked, semanticRanks, byKey);
        this.semanticError = undefined;
      } catch (error) {
        // Semantic ranking is a help, never a requirement: lexical ranking stands alone.
        this.semanticError = toHostError(error).message;
      }
    }
    return ranked.slice(0, options.limit).map((r) => toHit(r, byKey.get(r.id), semanticRanks.get(r.id)));
  }

  /** Plan one run's offer: the core for the conversation so far, the budget, the search tool. */
  async planRun(input: {
    settings: ChatSettings;
    overrides?: OfferOverrides;
    cap: number;
    messages: readonly ChatMessage[];
  }): Promise<RunOffer> {
    const { catalog } = this.sync();
    const full = this.fullOffer(input.settings, catalog);
    const changed = new Set(
      catalog.tools
        .filter((t) => t.trust?.pin === 'changed')
        .map((t) => selectionKey(t.serverId, t.tool.name)),
    );
    return RunOffer.plan({
      full,
      budget: offerBudget(input.settings, input.overrides),
      cap: input.cap,
      pinned: input.settings.alwaysOffer ?? [],
      used: usedTools(input.messages),
      query: conversationQuery(input.messages),
      awaitingReview: (id) => changed.has(id),
      rank: (query, limit, exclude) =>
        this.searchKeyed(query, { limit, exclude, settings: input.settings, semantic: true }),
    });
  }

  /** Tokens each server's enabled tools would cost a request if all were declared (Servers › Info). */
  tokensByServer(settings: ChatSettings): Record<string, number> {
    const full = this.fullOffer(settings);
    const out: Record<string, number> = {};
    for (const t of full.tools) {
      const origin = full.byName.get(t.name);
      if (origin) out[origin.serverId] = (out[origin.serverId] ?? 0) + declarationTokens(t);
    }
    return out;
  }
}

/** The text a tool is embedded by: what the model would read of it. */
function embeddingText(t: CatalogTool): string {
  // Only what the fingerprint covers, so the vector cache's key determines the text.
  const title = t.tool.title ?? t.tool.annotations?.title;
  return [t.tool.name, title, t.tool.description].filter(Boolean).join('\n').slice(0, 2000);
}

/** Reciprocal-rank fusion of the lexical order and the semantic ranks: robust to their different scales. */
function fuse(
  lexical: readonly RankedTool[],
  semantic: ReadonlyMap<string, number>,
  byKey: ReadonlyMap<string, CatalogTool>,
): RankedTool[] {
  const fused = new Map<string, RankedTool>();
  lexical.forEach((r, i) => fused.set(r.id, { ...r, score: 1 / (RRF_K + i + 1) }));
  for (const [id, rank] of semantic) {
    const prev = fused.get(id);
    if (prev) prev.score += 1 / (RRF_K + rank);
    else {
      const t = byKey.get(id);
      if (t)
        fused.set(id, {
          id,
          serverId: t.serverId,
          tool: t.tool.name,
          score: 1 / (RRF_K + rank),
          reason: 'match',
          terms: [],
        });
    }
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

function toHit(r: RankedTool, t: CatalogTool | undefined, semanticRank: number | undefined): KeyedHit {
  const warnings = t?.trust?.warnings.map((w) => w.reason) ?? [];
  const title = t?.tool.title ?? t?.tool.annotations?.title;
  return {
    id: r.id,
    serverId: r.serverId,
    tool: r.tool,
    ...(title ? { title } : {}),
    line: (t?.tool.description ?? '').trim().split('\n')[0].slice(0, 200),
    score: Number(r.score.toFixed(4)),
    reason: r.reason,
    terms: r.terms,
    ...(semanticRank !== undefined ? { semanticRank } : {}),
    ...(warnings.length ? { warnings } : {}),
    ...(t?.trust?.pin === 'changed' ? { awaitingReview: true } : {}),
  };
}

/** Tools called in a conversation, most recent first, each once. */
export function usedTools(messages: readonly ChatMessage[]): string[] {
  const out: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    for (const p of messages[i].parts) {
      if (p.type !== 'tool_call' || !p.call.serverId || p.call.host) continue;
      const key = selectionKey(p.call.serverId, p.call.tool);
      if (!out.includes(key)) out.push(key);
    }
  }
  return out;
}

/** The conversation so far as one query: the person's latest message, then the two before it. */
export function conversationQuery(messages: readonly ChatMessage[]): string {
  const texts = messages
    .filter((m) => m.role === 'user')
    .slice(-3)
    .map((m) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(' '));
  const latest = texts.pop() ?? '';
  return [latest, ...texts.reverse()].join('\n').slice(0, 8000);
}
