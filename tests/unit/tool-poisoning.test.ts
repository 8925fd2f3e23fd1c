/**
 * Must show 2 (issue 15): the poisoning and shadowing heuristics over a corpus of benign and
 * hostile tool descriptions. Every hostile case is flagged with the kinds it should be; at
 * most one benign case is flagged at all (the count is printed either way).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CatalogTool } from '../../shared/domain/catalog.js';
import { inspectTools, LONG_DESCRIPTION } from '../../electron/host/tool-trust/inspect-tools.js';
import { nameSkeleton } from '../../electron/host/tool-trust/shadowing.js';
import { CORPUS, type CorpusCase, type CorpusTool } from '../fixtures/tool-poisoning-corpus.js';

const entry = (t: CorpusTool): CatalogTool => ({
  serverId: t.serverId,
  enabled: true,
  tool: {
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    inputSchema: t.inputSchema ?? { type: 'object', properties: {} },
  },
});

/** The warnings on a case's own tool, in a catalog of it and its context. */
function verdict(c: CorpusCase) {
  const own = entry(c.tool);
  const warnings = inspectTools([own, ...(c.context ?? []).map(entry)]).get(own) ?? [];
  return warnings;
}

describe('tool poisoning corpus', () => {
  it('has at least 30 cases, benign and hostile', () => {
    assert.ok(CORPUS.length >= 30, `${CORPUS.length} cases`);
    assert.ok(CORPUS.filter((c) => c.verdict === 'benign').length >= 15);
    assert.ok(CORPUS.filter((c) => c.verdict === 'hostile').length >= 15);
  });

  it('flags every hostile case with the right kinds', () => {
    const misses: string[] = [];
    for (const c of CORPUS.filter((x) => x.verdict === 'hostile')) {
      const warnings = verdict(c);
      const kinds = new Set(warnings.map((w) => w.kind));
      const missing = c.kinds.filter((k) => !kinds.has(k));
      if (missing.length > 0)
        misses.push(`${c.id}: missing ${missing.join(', ')} (got ${[...kinds].join(', ') || 'nothing'})`);
      for (const w of warnings) {
        assert.ok(w.reason.length > 0, `${c.id}: a reason`);
        assert.ok(w.passages.length > 0, `${c.id}/${w.kind}: a passage`);
        for (const p of w.passages)
          assert.ok(p.start <= p.end && p.end <= p.text.length, `${c.id}: offsets in range`);
      }
    }
    assert.deepEqual(misses, []);
  });

  it('flags at most one benign case', () => {
    const flagged = CORPUS.filter((c) => c.verdict === 'benign')
      .map((c) => ({ c, warnings: verdict(c) }))
      .filter((x) => x.warnings.length > 0);
    const benign = CORPUS.filter((c) => c.verdict === 'benign').length;
    console.log(
      `tool-poisoning corpus: ${flagged.length} of ${benign} benign cases flagged` +
        flagged.map((x) => `\n  ${x.c.id}: ${x.warnings.map((w) => w.reason).join(' | ')}`).join(''),
    );
    assert.ok(flagged.length <= 1, `${flagged.length} benign cases flagged`);
  });

  it('marks the passage a person should read', () => {
    const c = CORPUS.find((x) => x.id === 'ignore-previous');
    assert.ok(c);
    const w = verdict(c).find((x) => x.kind === 'model-instructions');
    assert.ok(w);
    const p = w.passages[0];
    assert.equal(p.field, 'description');
    assert.match(p.text.slice(p.start, p.end), /^Ignore all previous instructions/);
    // Schema strings are found by JSON pointer.
    const schema = CORPUS.find((x) => x.id === 'hidden-in-schema');
    assert.ok(schema);
    const fields = verdict(schema).flatMap((x) => x.passages.map((q) => q.field));
    assert.ok(fields.includes('inputSchema/properties/notes/description'), fields.join(', '));
  });

  it('tag characters are read as the text they hide', () => {
    const c = CORPUS.find((x) => x.id === 'tag-smuggling');
    assert.ok(c);
    const hidden = verdict(c).find((w) => w.kind === 'hidden-unicode');
    assert.match(hidden?.reason ?? '', /Ignore previous instructions/);
  });

  it('folds names to one skeleton across case, lookalikes and compatibility forms', () => {
    assert.equal(nameSkeleton('Iist_directory'), nameSkeleton('list_directory'));
    assert.equal(nameSkeleton('writ\u0435_file'), nameSkeleton('write_file'));
    assert.equal(nameSkeleton('ｅｄｉｔ_file'), nameSkeleton('edit_file'));
    assert.equal(nameSkeleton('read\u200B_file'), nameSkeleton('read_file'));
    assert.notEqual(nameSkeleton('read_file'), nameSkeleton('read_files'));
    assert.notEqual(nameSkeleton('read_file'), nameSkeleton('read-file'));
  });

  it('long descriptions: the threshold is what it says', () => {
    const just = entry({ serverId: 's', name: 'x', description: 'a'.repeat(LONG_DESCRIPTION) });
    const over = entry({ serverId: 's', name: 'y', description: 'a'.repeat(LONG_DESCRIPTION + 1) });
    const result = inspectTools([just, over]);
    assert.deepEqual(result.get(just), []);
    assert.deepEqual(
      result.get(over)?.map((w) => w.kind),
      ['long-description'],
    );
  });
});
