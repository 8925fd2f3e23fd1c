import type { ChatSettings } from '../../../../shared/domain/chat.js';
import type { ProviderFactory } from '../../chat/provider-factory.js';
import type { SemanticRanker } from '../tool-selection.js';
import { VectorCache } from './vector-cache.js';

/** Texts per embedding request (Gemini's batch limit is 100). */
const BATCH = 64;
/** Query vectors kept in memory (a run's first request and its searches repeat little). */
const QUERY_CACHE = 200;

/**
 * Semantic ranking through the configured provider's embedding API (Gemini embeddings, or an
 * OpenAI-compatible `/v1/embeddings`: Ollama, LM Studio): tools are embedded once per
 * definition (the vector cache), the query on each search, and tools are ordered by cosine
 * similarity. Only used when the settings turn it on; lexical ranking works without it.
 */
export function semanticRanker(deps: { vectorsPath?: string; providers: ProviderFactory }): SemanticRanker {
  const cache = new VectorCache(deps.vectorsPath);
  const queries = new Map<string, number[]>();
  return {
    async nearest(query, candidates, settings: ChatSettings) {
      const provider = await deps.providers.create(settings);
      const model = settings.embeddingModel || provider.defaultEmbeddingModel;
      const space = `${provider.id}:${model}`;
      const vectors = new Map<string, Float32Array>();
      const missing: { fingerprint: string; text: string }[] = [];
      for (const c of candidates) {
        const v = await cache.get(space, c.fingerprint);
        if (v) vectors.set(c.fingerprint, v);
        else if (!missing.some((m) => m.fingerprint === c.fingerprint)) missing.push(c);
      }
      for (let i = 0; i < missing.length; i += BATCH) {
        const batch = missing.slice(i, i + BATCH);
        const got = await provider.embed(
          batch.map((m) => m.text),
          model,
        );
        for (const [j, m] of batch.entries()) {
          await cache.set(space, m.fingerprint, got[j]);
          vectors.set(m.fingerprint, Float32Array.from(got[j]));
        }
      }
      if (missing.length) await cache.save();
      const key = `${space}\u0000${query}`;
      let q = queries.get(key);
      if (!q) {
        q = (await provider.embed([query], model, { purpose: 'query' }))[0];
        if (queries.size >= QUERY_CACHE) queries.delete(queries.keys().next().value!);
        queries.set(key, q);
      }
      const scored = candidates.map((c) => ({ id: c.id, score: cosine(q, vectors.get(c.fingerprint)) }));
      return scored.sort((a, b) => b.score - a.score).map((s) => s.id);
    },
  };
}

function cosine(a: readonly number[], b: Float32Array | undefined): number {
  if (!b || b.length !== a.length) return -1;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : -1;
}
