// The one accessibility check of the e2e files (issue 12, must-show 2): axe-core over the page
// or a part of it, failing on any serious or critical violation with its rule and targets.
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** What to check: a selector to include (a string means just that), and one to leave out. */
export type AxeScope = string | { include?: string; exclude?: string };

/** The serious and critical violations in `scope`, one line each (rule, help, targets). */
export async function seriousViolations(p: Page, scope: AxeScope = {}): Promise<string[]> {
  const { include, exclude } = typeof scope === 'string' ? { include: scope, exclude: undefined } : scope;
  // Legacy mode runs axe inside the page: pages made with browser.newPage() have an implicit
  // context that cannot open the extra page axe's default (cross-frame) mode needs, and our
  // views have no cross-origin frames to miss.
  // Only violations are read: axe then stops collecting every passing node (about half its time
  // on our views, measured with the page's own CPU counters).
  const builder = new AxeBuilder({ page: p }).setLegacyMode(true).options({ resultTypes: ['violations'] });
  if (include) builder.include(include);
  if (exclude) builder.exclude(exclude);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n` +
        v.nodes
          .slice(0, 6)
          .map(
            (n) =>
              `    ${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.split('\n')[1] ?? ''}` : ''}`,
          )
          .join('\n'),
    );
}

/** Fails when axe finds a serious or critical violation in `scope` of `where`, naming each. */
export async function assertAccessible(p: Page, where: string, scope: AxeScope = {}): Promise<void> {
  const bad = await seriousViolations(p, scope);
  assert.equal(
    bad.length,
    0,
    `axe on ${where}: ${bad.length} serious/critical violation(s)\n${bad.join('\n')}`,
  );
}
