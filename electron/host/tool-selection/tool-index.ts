import MiniSearch from 'minisearch';
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

/**
 * Field weights (BM25F through MiniSearch's per-field boosts): a tool's name says most about
 * what it does, its description next; its parameters and its server's words are supporting
 * evidence (a server's words are shared by all its tools, so they tell servers apart rather
 * than tools).
 */
export const FIELD_BOOSTS = { name: 4, title: 2, description: 1, params: 0.5, server: 0.8 };
const FIELDS = Object.keys(FIELD_BOOSTS);

/**
 * The lexical index of every tool the host knows, on MiniSearch (BM25+ over several fields,
 * synchronous, with add, discard and replace, so a list change costs only what changed).
 * `sync` takes the whole current list and touches only the tools whose definition object or
 * server text changed: a catalog reload hands new objects only for the server that reloaded.
 */
export class ToolIndex {
  private readonly search = new MiniSearch<ToolDocument>({
    fields: FIELDS,
    storeFields: [],
    idField: 'id',
    tokenize: (text) => {
      const terms = searchTerms(text);
      // The document being added collects its terms, for document frequencies (see `common`).
      for (const t of terms) this.adding?.add(t);
      return terms;
    },
    processTerm: (term) => term,
    searchOptions: {
      boost: FIELD_BOOSTS,
      // Queries arrive as terms already processed by searchTerms (and weighted by the caller).
      tokenize: (text) => text.split(' ').filter(Boolean),
      processTerm: (term) => term,
    },
    autoVacuum: { minDirtCount: 200, minDirtFactor: 0.2, batchSize: 1000, batchWait: 10 },
  });
  private readonly docs = new Map<
    string,
    { doc: ToolDocument; tool: Tool; serverKey: string; serverText?: ServerText; terms: Set<string> }
  >();
  /** How many tools hold each term. */
  private readonly df = new Map<string, number>();
  private adding?: Set<string>;
  private readonly byServer = new Map<string, Set<string>>();

  /** How many tools are indexed. */
  get size(): number {
    return this.docs.size;
  }

  /** Bring the index in line with `entries` (the whole current list); returns how many tools changed. */
  sync(entries: Iterable<IndexEntry>): number {
    const seen = new Set<string>();
    let changed = 0;
    for (const e of entries) {
      const id = selectionKey(e.serverId, e.tool.name);
      if (seen.has(id)) continue;
      seen.add(id);
      const had = this.docs.get(id);
      // Same definition object and same server words: nothing to do (the common case, checked first).
      if (had && had.tool === e.tool && had.serverText === e.server) continue;
      const doc = toolDocument(e.serverId, e.tool, e.server);
      const serverKey = doc.server;
      if (had && had.tool === e.tool && had.serverKey === serverKey) {
        had.serverText = e.server;
        continue;
      }
      if (had) {
        this.search.discard(doc.id);
        this.forget(had.terms);
      }
      const terms = new Set<string>();
      this.adding = terms;
      try {
        this.search.add(doc);
      } finally {
        this.adding = undefined;
      }
      for (const t of terms) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      this.docs.set(doc.id, { doc, tool: e.tool, serverKey, serverText: e.server, terms });
      let ids = this.byServer.get(e.serverId);
      if (!ids) this.byServer.set(e.serverId, (ids = new Set()));
      ids.add(doc.id);
      changed++;
    }
    for (const id of [...this.docs.keys()]) {
      if (seen.has(id)) continue;
      const { doc, terms } = this.docs.get(id)!;
      this.search.discard(id);
      this.forget(terms);
      this.docs.delete(id);
      this.byServer.get(doc.serverId)?.delete(id);
      if (this.byServer.get(doc.serverId)?.size === 0) this.byServer.delete(doc.serverId);
      changed++;
    }
    return changed;
  }

  private forget(terms: ReadonlySet<string>): void {
    for (const t of terms) {
      const n = (this.df.get(t) ?? 1) - 1;
      if (n > 0) this.df.set(t, n);
      else this.df.delete(t);
    }
  }

  /** The share of indexed tools that hold `term` (0 for an unknown word). */
  share(term: string): number {
    return this.docs.size ? (this.df.get(term) ?? 0) / this.docs.size : 0;
  }

  /** Tools matching weighted terms: `weights` maps a term to its weight (1 for the person's own words). */
  query(weights: ReadonlyMap<string, number>, filter?: (id: string) => boolean): LexicalHit[] {
    if (weights.size === 0) return [];
    const results = this.search.search([...weights.keys()].join(' '), {
      boostTerm: (term) => weights.get(term) ?? 1,
      ...(filter ? { filter: (r) => filter(r.id as string) } : {}),
    });
    return results.map((r) => {
      const id = r.id as string;
      const doc = this.docs.get(id)!.doc;
      return { id, serverId: doc.serverId, tool: doc.tool, score: r.score, terms: r.terms };
    });
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
    return this.docs.get(id)?.doc;
  }
}
