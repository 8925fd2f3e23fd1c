import { EXPANSION_WEIGHT, impliedWords } from './query-intents.js';
import { searchTerms } from './search-text.js';
import type { LexicalHit, ToolIndex } from './tool-index.js';

/** Why a tool ranks where it does. */
export type RankReason =
  /** Its own text matched the request's words. */
  | 'match'
  /** It matched only words the request implies (a path, a date, a link). */
  | 'implied'
  /** Its server matched strongly: it is offered beside its matching siblings. */
  | 'sibling';

/** One ranked tool. */
export interface RankedTool {
  id: string;
  serverId: string;
  tool: string;
  score: number;
  reason: RankReason;
  /** The query words it matched (stemmed), for "why was this offered". */
  terms: string[];
}

/** How the ranking spends its slots. */
export interface RankOptions {
  limit: number;
  /** At most this share of `limit` goes to one server while others have candidates. */
  perServerShare?: number;
  /** Tools that must not be returned (switched off, awaiting review, already declared). */
  exclude?: (id: string) => boolean;
  /** Tuning knobs (tests and the bench); the defaults are the product's. */
  tuning?: Partial<RankTuning>;
}

/** The ranking's constants, in one place so the bench's split evaluation can vary them. */
export interface RankTuning {
  /** How much a tool's server evidence adds to its own score (both normalised to 1). */
  serverWeight: number;
  /** How many of a server's best hits make its evidence, and their decay. */
  serverTop: number;
  serverDecay: number;
  /** Siblings of a server with at least this normalised evidence are candidates too. */
  siblingThreshold: number;
  /** A sibling's score: its server's evidence times this. */
  siblingWeight: number;
  expansionWeight: number;
  /** The share of the slots the best-matching server may take; others get it in proportion to their evidence. */
  perServerShare: number;
  /** Every server with a candidate may take at least this many slots. */
  minPerServer: number;
  /** The share of the slots first given to each request word's best tools, so no word goes unserved. */
  coverageShare: number;
  /** How many of each word's best tools the coverage pass takes (rounds over the words). */
  coverageDepth: number;
  /** A word held by more than this share of all tools is left out of the query. */
  commonShare: number;
  /** The common-word rule applies only to an index of at least this many tools (small ones are cheap to search). */
  commonFrom: number;
  /** Only this many of the best lexical hits are considered (and their servers' siblings). */
  candidateDepth: number;
  /** At most this many words of a request are looked up. */
  maxTerms: number;
}

export const DEFAULT_TUNING: RankTuning = {
  serverWeight: 0.4,
  serverTop: 3,
  serverDecay: 0.5,
  siblingThreshold: 0.35,
  siblingWeight: 0.45,
  expansionWeight: EXPANSION_WEIGHT,
  perServerShare: 0.6,
  minPerServer: 2,
  coverageShare: 0.4,
  coverageDepth: 2,
  commonShare: 0.15,
  commonFrom: 100,
  candidateDepth: 300,
  maxTerms: 40,
};

/** The request's own words (weight 1) and the words it implies (lower), as the index takes them. */
export function queryWeights(text: string, expansionWeight = EXPANSION_WEIGHT): Map<string, number> {
  const weights = new Map<string, number>();
  for (const t of searchTerms(text)) weights.set(t, 1);
  for (const t of impliedWords(text)) if (!weights.has(t)) weights.set(t, expansionWeight);
  return weights;
}

/**
 * Rank tools for a request: lexical matches (BM25F), lifted by how well their server matches
 * as a whole (a request usually needs several tools of the servers it is about), then siblings
 * of strongly matching servers, then the slots shared out so one big server cannot take them
 * all while others have good candidates.
 */
export function rankTools(index: ToolIndex, text: string, options: RankOptions): RankedTool[] {
  const t = { ...DEFAULT_TUNING, ...options.tuning };
  const weights = queryWeights(text, t.expansionWeight);
  // Words no tool holds cannot match: dropped before they crowd out those that can.
  for (const w of [...weights.keys()]) if (index.share(w) === 0) weights.delete(w);
  // Words most tools hold say little (BM25 gives them almost nothing) and cost the most to
  // look up: in a large index, leave them out while rarer words remain. In a small one every
  // word is cheap, and a word most of a few tools share still tells which of them matched.
  const common =
    index.size < t.commonFrom ? [] : [...weights.keys()].filter((w) => index.share(w) > t.commonShare);
  if (common.length < weights.size) for (const w of common) weights.delete(w);
  // A long request keeps its most telling words: rare ones, and the person's own before implied ones.
  if (weights.size > t.maxTerms) {
    const keep = [...weights]
      .sort(([a, x], [b, y]) => y - x || index.share(a) - index.share(b))
      .slice(0, t.maxTerms);
    weights.clear();
    for (const [w, v] of keep) weights.set(w, v);
  }
  const ownTerms = new Set([...weights].filter(([, w]) => w >= 1).map(([k]) => k));
  const hits = index
    .query(weights, options.exclude ? (id) => !options.exclude!(id) : undefined)
    .slice(0, Math.max(t.candidateDepth, options.limit));
  if (hits.length === 0 || options.limit <= 0) return [];
  const top = hits[0].score;

  const evidence = serverEvidence(hits, t);
  const bestServer = Math.max(...evidence.values());
  const candidates = new Map<string, RankedTool>();
  for (const h of hits) {
    const server = (evidence.get(h.serverId) ?? 0) / bestServer;
    candidates.set(h.id, {
      id: h.id,
      serverId: h.serverId,
      tool: h.tool,
      score: h.score / top + t.serverWeight * server,
      reason: h.terms.some((x) => ownTerms.has(x)) ? 'match' : 'implied',
      terms: h.terms,
    });
  }
  for (const [serverId, value] of evidence) {
    const server = value / bestServer;
    if (server < t.siblingThreshold) continue;
    for (const id of index.toolsOf(serverId)) {
      if (candidates.has(id) || options.exclude?.(id)) continue;
      const doc = index.document(id)!;
      candidates.set(id, {
        id,
        serverId,
        tool: doc.tool,
        score: t.siblingWeight * server * actionPrior(doc.tool),
        reason: 'sibling',
        terms: [],
      });
    }
  }
  const sorted = [...candidates.values()].sort((a, b) => b.score - a.score || byId(a, b));
  const caps = new Map<string, number>();
  const share = options.perServerShare ?? t.perServerShare;
  for (const [serverId, value] of evidence)
    caps.set(serverId, Math.max(t.minPerServer, Math.round(options.limit * share * (value / bestServer))));
  const covered = coverage(hits, weights, candidates, options, t);
  return shareSlots(sorted, options.limit, caps, covered);
}

/**
 * A long request asks for several things, and summed scores favour tools that touch many of
 * its common words ("file", "read", "write") over the one tool that matches its rarest word
 * ("deepwiki"). So, first, each word gets its own best tools, the words taken in order of how
 * strongly they match anything (rare words and the person's own words first).
 */
function coverage(
  hits: readonly LexicalHit[],
  weights: ReadonlyMap<string, number>,
  candidates: ReadonlyMap<string, RankedTool>,
  options: RankOptions,
  t: RankTuning,
): RankedTool[] {
  const slots = Math.floor(options.limit * t.coverageShare);
  if (slots <= 0) return [];
  // Each word's tools in score order, from the one search: a rare word's best tool is the one
  // that names it, a common word's the one that matches it and more.
  const perTerm = new Map<string, LexicalHit[]>();
  for (const h of hits) {
    for (const term of h.terms) {
      if (!weights.has(term)) continue;
      const list = perTerm.get(term);
      if (!list) perTerm.set(term, [h]);
      else if (list.length < t.coverageDepth) list.push(h);
    }
  }
  // Words in order of how strongly their best tool matches, weighted (the person's own words first).
  const order = [...perTerm].sort(
    ([a, x], [b, y]) => y[0].score * (weights.get(b) ?? 1) - x[0].score * (weights.get(a) ?? 1),
  );
  const chosen: RankedTool[] = [];
  const taken = new Set<string>();
  for (let round = 0; round < t.coverageDepth; round++) {
    for (const [, list] of order) {
      if (chosen.length >= slots) return chosen;
      const next = list.find((h) => !taken.has(h.id));
      const c = next && candidates.get(next.id);
      if (!c) continue;
      taken.add(c.id);
      chosen.push(c);
    }
  }
  return chosen;
}

/**
 * How likely a tool nobody asked for by name is still needed, from the verb its name starts
 * with: tools that create, open, read or find things are what most tasks go through;
 * tools that delete, reset or reconfigure are rarely part of a task that does not say so.
 */
export function actionPrior(tool: string): number {
  let prior = priors.get(tool);
  if (prior === undefined) {
    if (priors.size >= 50_000) priors.clear();
    priors.set(tool, (prior = verbPrior(tool)));
  }
  return prior;
}

/** Priors by tool name: the same names come back on every query. */
const priors = new Map<string, number>();

function verbPrior(tool: string): number {
  const verb = /^[a-z]+/.exec(tool.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase())?.[0] ?? '';
  if (/^(?:delete|remove|clear|reset|drop|close|end|kill|uninstall|purge|destroy|cancel|undo)$/.test(verb))
    return 0.5;
  if (/^(?:set|config|configure|update|manage|apply|approve|mark|move|rename|copy)$/.test(verb)) return 0.75;
  return 1;
}

/** Ties in score go by key, in code-unit order (cheap, and the same everywhere). */
function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A server's evidence: its best hits' scores, each next one counting less. */
function serverEvidence(hits: readonly LexicalHit[], t: RankTuning): Map<string, number> {
  const seen = new Map<string, number>();
  const evidence = new Map<string, number>();
  for (const h of hits) {
    const n = seen.get(h.serverId) ?? 0;
    if (n >= t.serverTop) continue;
    seen.set(h.serverId, n + 1);
    evidence.set(h.serverId, (evidence.get(h.serverId) ?? 0) + h.score * t.serverDecay ** n);
  }
  return evidence;
}

/**
 * Take the best candidates, at most `share` of the slots per server in a first pass; slots
 * left over (few servers matched) go to the best of the rest, whatever their server.
 */
function shareSlots(
  sorted: readonly RankedTool[],
  limit: number,
  caps: ReadonlyMap<string, number>,
  first: readonly RankedTool[],
): RankedTool[] {
  const perServer = new Map<string, number>();
  const chosen: RankedTool[] = [...first];
  const rest: RankedTool[] = [];
  const taken = new Set(first.map((c) => c.id));
  for (const c of first) perServer.set(c.serverId, (perServer.get(c.serverId) ?? 0) + 1);
  for (const c of sorted) {
    if (chosen.length >= limit) break;
    if (taken.has(c.id)) continue;
    const n = perServer.get(c.serverId) ?? 0;
    if (n < (caps.get(c.serverId) ?? 1)) {
      perServer.set(c.serverId, n + 1);
      chosen.push(c);
    } else rest.push(c);
  }
  for (const c of rest) {
    if (chosen.length >= limit) break;
    chosen.push(c);
  }
  return chosen.sort((a, b) => b.score - a.score || byId(a, b));
}
