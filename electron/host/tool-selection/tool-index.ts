import type { Tool } from '../../../shared/domain/mcp-types.js';
import { searchTerms } from './search-text.js';
import { selectionKey, toolDocument, type ServerText, type ToolDocument } from './tool-documents.js';

/** One tool to index, and what identifies its current version. */
export interface IndexEntry {
  serverId: string;
  tool: Tool;
  server?: ServerText;
}

/** One lexical match: a tool, its BM25F score and the query words it matched. */
export interface LexicalHit {
  id: string;
  serverId: string;
  tool: string;
  score: number;
  terms: string[];
}

/** The fields a tool is indexed by, in the order their counts are stored. */
const FIELDS = ['name', 'title', 'description', 'params', 'server'] as const;
type Field = (typeof FIELDS)[number];
const F = FIELDS.length;

/**
 * BM25F: a field's term counts are weighted and length-normalised, summed, and only then
 * saturated, so a word in the name and again in the description counts more than once but
 * never as two separate matches. The name says most about what a tool does, its description
 * next; its parameters and its server's words are supporting evidence (a server's words are
 * shared by all its tools, so they tell servers apart rather than tools). `b` is how much a
 * field's length dilutes a match: fully for prose, little for a name of two or three words.
 */
export const FIELD_WEIGHTS: Readonly<Record<Field, { weight: number; b: number }>> = {
  name: { weight: 4, b: 0.3 },
  title: { weight: 2, b: 0.3 },
  description: { weight: 1, b: 0.75 },
  params: { weight: 0.5, b: 0.75 },
  server: { weight: 0.8, b: 0.75 },
};
/**
 * How fast repeated matches saturate. Above the usual 1.2: BM25F sums five weighted fields
 * before saturating, so a word in a tool's name and again in its description should still
 * count clearly more than one in its parameters alone (1.5-1.8 rank alike on both halves of
 * the tool-search splits; 1.2 and below lose on both).
 */
const K1 = 1.5;

const WEIGHTS = FIELDS.map((f) => FIELD_WEIGHTS[f].weight);
const B = FIELDS.map((f) => FIELD_WEIGHTS[f].b);

/** One indexed tool. */
interface Slot {
  doc: ToolDocument;
  tool: Tool;
  serverKey: string;
  serverText?: ServerText;
  /** Its distinct terms, to take it out of their postings again. */
  terms: string[];
  /** Its length (terms) in each field. */
  len: number[];
}

/** The tools holding one term: their slots, and per slot its count in each field (F numbers). */
interface Posting {
  slots: number[];
  counts: number[];
}

/**
 * The lexical index of every tool the host knows: an inverted index (term -> tools and their
 * per-field counts) scored by BM25F. Written here rather than taken from a library because the
 * ranking needs what general search libraries make slow or leave out — true BM25F, exact
 * document frequencies, each hit's matched words, a few dozen OR'ed words per query within a
 * millisecond — and needs none of what makes them large (prefix and fuzzy search, stored
 * fields, serialisation). `sync` takes the whole current list and touches only the tools whose
 * definition object or server text changed: a catalog reload hands new objects only for the
 * server that reloaded.
 */
export class ToolIndex {
  private readonly slots: (Slot | undefined)[] = [];
  private readonly free: number[] = [];
  private readonly byId = new Map<string, number>();
  private readonly postings = new Map<string, Posting>();
  private readonly byServer = new Map<string, Set<string>>();
  private readonly lenSum = new Array<number>(F).fill(0);
  /** Per slot and field, 1 / (1 - b + b * len / avgLen); rebuilt on the first query after a change. */
  private norms?: Float64Array;

  /** How many tools are indexed. */
  get size(): number {
    return this.byId.size;
  }

  /** Bring the index in line with `entries` (the whole current list); returns how many tools changed. */
  sync(entries: Iterable<IndexEntry>): number {
    const seen = new Set<string>();
    let changed = 0;
    for (const e of entries) {
      const id = selectionKey(e.serverId, e.tool.name);
      if (seen.has(id)) continue;
      seen.add(id);
      const at = this.byId.get(id);
      const had = at === undefined ? undefined : this.slots[at];
      // Same definition object and same server words: nothing to do (the common case, checked first).
      if (had && had.tool === e.tool && had.serverText === e.server) continue;
      const doc = toolDocument(e.serverId, e.tool, e.server);
      if (had && had.tool === e.tool && had.serverKey === doc.server) {
        had.serverText = e.server;
        continue;
      }
      if (at !== undefined) this.remove(at);
      this.add(doc, e);
      changed++;
    }
    for (const [id, at] of [...this.byId]) {
      if (seen.has(id)) continue;
      this.remove(at);
      changed++;
    }
    return changed;
  }

  private add(doc: ToolDocument, e: IndexEntry): void {
    const at = this.free.pop() ?? this.slots.length;
    // This tool's terms and their counts per field (F numbers each, in first-seen order).
    const offsets = new Map<string, number>();
    const counts: number[] = [];
    const len = new Array<number>(F).fill(0);
    FIELDS.forEach((field, f) => {
      for (const term of searchTerms(doc[field])) {
        let o = offsets.get(term);
        if (o === undefined) {
          o = counts.length;
          offsets.set(term, o);
          for (let i = 0; i < F; i++) counts.push(0);
        }
        counts[o + f]++;
        len[f]++;
      }
      this.lenSum[f] += len[f];
    });
    for (const [term, o] of offsets) {
      let p = this.postings.get(term);
      if (!p) this.postings.set(term, (p = { slots: [], counts: [] }));
      p.slots.push(at);
      for (let i = 0; i < F; i++) p.counts.push(counts[o + i]);
    }
    this.slots[at] = {
      doc,
      tool: e.tool,
      serverKey: doc.server,
      serverText: e.server,
      terms: [...offsets.keys()],
      len,
    };
    this.byId.set(doc.id, at);
    let ids = this.byServer.get(doc.serverId);
    if (!ids) this.byServer.set(doc.serverId, (ids = new Set()));
    ids.add(doc.id);
    this.norms = undefined;
  }

  private remove(at: number): void {
    const slot = this.slots[at]!;
    for (const term of slot.terms) {
      const p = this.postings.get(term)!;
      // Order within a posting does not matter: the last entry takes the removed one's place.
      const i = p.slots.lastIndexOf(at);
      const last = p.slots.length - 1;
      p.slots[i] = p.slots[last];
      for (let f = 0; f < F; f++) p.counts[i * F + f] = p.counts[last * F + f];
      p.slots.pop();
      p.counts.length -= F;
      if (p.slots.length === 0) this.postings.delete(term);
    }
    for (let f = 0; f < F; f++) this.lenSum[f] -= slot.len[f];
    const { id, serverId } = slot.doc;
    this.slots[at] = undefined;
    this.free.push(at);
    this.byId.delete(id);
    const ids = this.byServer.get(serverId);
    ids?.delete(id);
    if (ids?.size === 0) this.byServer.delete(serverId);
    this.norms = undefined;
  }

  private lengthNorms(): Float64Array {
    if (this.norms) return this.norms;
    const n = this.byId.size || 1;
    const avg = this.lenSum.map((s) => s / n || 1);
    const norms = new Float64Array(this.slots.length * F);
    this.slots.forEach((slot, at) => {
      if (!slot) return;
      for (let f = 0; f < F; f++) norms[at * F + f] = 1 / (1 - B[f] + (B[f] * slot.len[f]) / avg[f]);
    });
    return (this.norms = norms);
  }

  /** How many indexed tools hold `term`. */
  count(term: string): number {
    return this.postings.get(term)?.slots.length ?? 0;
  }

  /** The share of indexed tools that hold `term` (0 for an unknown word). */
  share(term: string): number {
    return this.byId.size ? this.count(term) / this.byId.size : 0;
  }

  /**
   * Tools matching weighted terms, best first: `weights` maps a term to its weight (1 for the
   * person's own words). A tool's score is the sum over matched terms of weight x IDF x the
   * saturated BM25F term frequency.
   */
  query(weights: ReadonlyMap<string, number>, filter?: (id: string) => boolean): LexicalHit[] {
    const norms = this.lengthNorms();
    const n = this.byId.size;
    const scores = new Float64Array(this.slots.length);
    const matched: (string[] | undefined)[] = [];
    const touched: number[] = [];
    for (const [term, w] of weights) {
      const p = this.postings.get(term);
      if (!p || w <= 0) continue;
      const df = p.slots.length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let j = 0; j < df; j++) {
        const at = p.slots[j];
        let tf = 0;
        for (let f = 0; f < F; f++) {
          const c = p.counts[j * F + f];
          if (c) tf += WEIGHTS[f] * c * norms[at * F + f];
        }
        scores[at] += (w * idf * tf * (K1 + 1)) / (K1 + tf);
        const terms = matched[at];
        if (terms) terms.push(term);
        else {
          matched[at] = [term];
          touched.push(at);
        }
      }
    }
    const hits: LexicalHit[] = [];
    for (const at of touched) {
      const { doc } = this.slots[at]!;
      if (filter && !filter(doc.id)) continue;
      hits.push({
        id: doc.id,
        serverId: doc.serverId,
        tool: doc.tool,
        score: scores[at],
        terms: matched[at]!,
      });
    }
    return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The ids of one server's indexed tools. */
  toolsOf(serverId: string): ReadonlySet<string> {
    return this.byServer.get(serverId) ?? new Set();
  }

  /** The servers that have indexed tools. */
  servers(): IterableIterator<string> {
    return this.byServer.keys();
  }

  /** The stored document of one tool (its fields as indexed). */
  document(id: string): ToolDocument | undefined {
    const at = this.byId.get(id);
    return at === undefined ? undefined : this.slots[at]?.doc;
  }

  /** One tool's distinct terms, as indexed. */
  termsOf(id: string): readonly string[] {
    const at = this.byId.get(id);
    return (at === undefined ? undefined : this.slots[at]?.terms) ?? [];
  }
}
