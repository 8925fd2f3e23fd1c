import type { CallToolResult } from '../../../shared/domain/mcp-types.js';
import type {
  OfferBudget,
  OfferedTool,
  OfferReason,
  OfferReport,
  ToolSearchHit,
} from '../../../shared/domain/tool-selection.js';
import type { ModelTool } from '../chat/provider.js';
import type { ToolOfferPlan } from '../chat/tool-offer.js';
import { declarationTokens } from './declaration-tokens.js';
import { selectionKey } from './tool-documents.js';
import {
  parseSearchArgs,
  searchResult,
  searchToolDeclaration,
  SEARCH_TOOL_NAME,
  type DeclaredHit,
} from './search-meta-tool.js';

/** A ranked hit with its selection key. */
export type KeyedHit = ToolSearchHit & { id: string };

/** What a run's offer is planned from. */
export interface RunOfferInputs {
  /** Every enabled tool, qualified (ToolOfferCache with no limit). */
  full: ToolOfferPlan;
  budget: OfferBudget;
  /** The provider's limit on declarations per request. */
  cap: number;
  /** `server/tool` keys a person marked "always offer", in their order. */
  pinned: readonly string[];
  /** `server/tool` keys called in this conversation, most recent first. */
  used: readonly string[];
  /** The text the first request's hits are ranked for (the conversation so far). */
  query: string;
  /** Ranks offerable tools for a text; `exclude` leaves out keys. */
  rank: (query: string, limit: number, exclude: (id: string) => boolean) => Promise<KeyedHit[]>;
  /** A key whose tool changed since pinned and awaits review: never declared by search. */
  awaitingReview: (id: string) => boolean;
}

interface Entry {
  id: string;
  tool: ModelTool;
  reason: OfferReason;
  query?: string;
  /** Lower goes first when room is needed (hits by rank, then finds oldest first). */
  evictOrder: number;
}

/** The part of a plan the agent loop calls for the search tool. */
export interface OfferSearch {
  name: string;
  run(args: Record<string, unknown>): Promise<CallToolResult>;
}

/**
 * One run's tool offer. In search mode the first request declares a stable core — tools a
 * person pinned, tools already used in this conversation, the top hits for the conversation —
 * plus the search tool; what a search finds is declared from the next request of the run on,
 * appended, so the order before it (and the provider's prompt cache over it) stays. The
 * budget (tools and tokens) holds for every request, never over the provider's cap: to make
 * room, the lowest-ranked hits go first. `tools` is replaced (never edited) when it changes.
 */
export class RunOffer implements ToolOfferPlan {
  tools: ModelTool[] = [];
  readonly byName: ToolOfferPlan['byName'] = new Map();
  readonly warnings: string[] = [];
  limit: number;
  readonly enabledCount: number;
  report!: OfferReport;
  search?: OfferSearch;
  private entries: Entry[] = [];
  private searchDecl?: ModelTool;
  private readonly nameOf = new Map<string, string>();
  private readonly toolOf = new Map<string, ModelTool>();

  private constructor(private readonly inputs: RunOfferInputs) {
    this.enabledCount = inputs.full.enabledCount;
    this.limit = Math.max(0, Math.min(inputs.budget.maxTools, inputs.cap - 1));
    for (const t of inputs.full.tools) {
      const origin = inputs.full.byName.get(t.name);
      if (!origin) continue;
      const id = selectionKey(origin.serverId, origin.tool.name);
      this.nameOf.set(id, t.name);
      this.toolOf.set(id, t);
    }
  }

  /** Plan the first request's offer. */
  static async plan(inputs: RunOfferInputs): Promise<RunOffer> {
    const offer = new RunOffer(inputs);
    await offer.planCore();
    return offer;
  }

  private async planCore(): Promise<void> {
    const { full, budget, cap } = this.inputs;
    const total = full.tools.reduce((n, t) => n + declarationTokens(t), 0);
    const fits =
      full.tools.length <= budget.maxTools && total <= budget.maxTokens && full.tools.length <= cap;
    if (budget.mode === 'all' || fits) {
      this.limit = cap;
      const kept = full.tools.slice(0, cap);
      if (full.tools.length > cap)
        this.warnings.push(
          `${full.tools.length} tools are enabled but the model accepts at most ${cap}: ${full.tools.length - cap} were left out. Switch to search mode, or disable servers or tools you do not need.`,
        );
      this.entries = kept.map((tool, i) => ({ id: this.idOf(tool), tool, reason: 'all', evictOrder: i }));
      this.publish();
      return;
    }
    this.searchDecl = searchToolDeclaration(full.tools.length);
    const chosen = new Set<string>();
    const add = (id: string, reason: OfferReason, evictOrder: number) => {
      const tool = this.toolOf.get(id);
      if (!tool || chosen.has(id) || this.entries.length >= this.limit) return;
      if (this.tokensWith(tool) > budget.maxTokens) return;
      chosen.add(id);
      this.entries.push({ id, tool, reason, evictOrder });
    };
    for (const id of this.inputs.pinned) add(id, 'pinned', Number.MAX_SAFE_INTEGER);
    // Used tools take at most half the slots: the rest are for what this message asks.
    for (const id of this.inputs.used.slice(0, Math.ceil(this.limit / 2)))
      add(id, 'used', Number.MAX_SAFE_INTEGER - 1);
    const room = this.limit - this.entries.length;
    if (room > 0 && this.inputs.query.trim()) {
      const exclude = (id: string) => chosen.has(id) || this.inputs.awaitingReview(id);
      const hits = await this.inputs.rank(this.inputs.query, room, exclude);
      hits.forEach((h, i) => add(h.id, 'hit', 2 * room - i));
      // Hits too large for the token budget leave their slots to the next best ones.
      if (this.entries.length < this.limit && hits.length === room) {
        const more = await this.inputs.rank(this.inputs.query, 2 * room, exclude);
        more.forEach((h, i) => add(h.id, 'hit', room - i));
      }
    }
    // A stable order for the provider's prompt cache: the core by name; finds are appended later.
    this.entries.sort((a, b) => (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0));
    this.search = { name: SEARCH_TOOL_NAME, run: (args) => this.runSearch(args) };
    this.publish();
  }

  /** The search tool: rank, declare what is not declared yet (making room if needed), answer with the hits. */
  private async runSearch(args: Record<string, unknown>): Promise<CallToolResult> {
    const parsed = parseSearchArgs(args);
    if (typeof parsed === 'string') return { content: [{ type: 'text', text: parsed }], isError: true };
    const hits = await this.inputs.rank(parsed.query, parsed.limit, (id) => this.inputs.awaitingReview(id));
    const declared: DeclaredHit[] = [];
    let changed = false;
    for (const h of hits) {
      const name = this.nameOf.get(h.id);
      const tool = this.toolOf.get(h.id);
      if (!name || !tool) continue;
      let notDeclared = false;
      if (!this.entries.some((e) => e.id === h.id)) {
        if (this.makeRoom(tool)) {
          this.entries.push({
            id: h.id,
            tool,
            reason: 'found',
            query: parsed.query,
            evictOrder: this.nextFoundOrder(),
          });
          changed = true;
        } else notDeclared = true;
      }
      declared.push({ ...h, name, ...(notDeclared ? { notDeclared } : {}) });
    }
    if (changed) this.publish();
    return searchResult(parsed.query, declared);
  }

  /** Evict hits (lowest rank first), then earlier finds (oldest first), until `tool` fits; false if it cannot. */
  private makeRoom(tool: ModelTool): boolean {
    const { maxTokens } = this.inputs.budget;
    const fits = () => this.entries.length < this.limit && this.tokensWith(tool) <= maxTokens;
    while (!fits()) {
      const candidates = this.entries.filter((e) => e.reason === 'hit' || e.reason === 'found');
      if (candidates.length === 0) return false;
      const victim = candidates.reduce((a, b) => (b.evictOrder < a.evictOrder ? b : a));
      this.entries = this.entries.filter((e) => e !== victim);
    }
    return true;
  }

  private nextFoundOrder(): number {
    // Finds rank above every hit of the first request, and a newer find above an older one.
    return 1_000_000 + this.entries.filter((e) => e.reason === 'found').length;
  }

  private tokensWith(extra: ModelTool): number {
    const search = this.searchDecl ? declarationTokens(this.searchDecl) : 0;
    return this.entries.reduce((n, e) => n + declarationTokens(e.tool), search + declarationTokens(extra));
  }

  private idOf(tool: ModelTool): string {
    const origin = this.inputs.full.byName.get(tool.name)!;
    return selectionKey(origin.serverId, origin.tool.name);
  }

  /** A new `tools` array and report; every tool ever declared in this run stays callable by its name. */
  private publish(): void {
    this.tools = [...(this.searchDecl ? [this.searchDecl] : []), ...this.entries.map((e) => e.tool)];
    for (const e of this.entries) {
      const origin = this.inputs.full.byName.get(e.tool.name);
      if (origin) this.byName.set(e.tool.name, origin);
    }
    const tools: OfferedTool[] = this.entries.map((e) => {
      const origin = this.inputs.full.byName.get(e.tool.name)!;
      return {
        name: e.tool.name,
        serverId: origin.serverId,
        tool: origin.tool.name,
        reason: e.reason,
        ...(e.query ? { query: e.query } : {}),
        tokens: declarationTokens(e.tool),
      };
    });
    this.report = {
      mode: this.inputs.budget.mode,
      tools,
      ...(this.searchDecl ? { searchTool: this.searchDecl.name } : {}),
      tokens: this.tools.reduce((n, t) => n + declarationTokens(t), 0),
      enabledCount: this.enabledCount,
      maxTools: this.inputs.budget.maxTools,
      maxTokens: this.inputs.budget.maxTokens,
      cap: this.inputs.cap,
    };
  }
}
