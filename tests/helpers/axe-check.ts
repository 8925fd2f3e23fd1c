import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** Runs axe over `page` (or `include`) and fails on any serious or critical violation, naming each. */
export async function assertNoSeriousAxeViolations(
  page: Page,
  what: string,
  include?: string,
): Promise<void> {
  // Legacy mode: the e2e pages live in the browser's default context, where axe cannot open
  // the helper page its newer mode needs; our views have no cross-origin frames to miss.
  const builder = new AxeBuilder({ page }).setLegacyMode();
  if (include) builder.include(include);
  const result = await builder.analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
    `axe found serious/critical violations in ${what}`,
  );
}
