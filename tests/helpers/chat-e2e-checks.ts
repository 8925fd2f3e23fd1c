// Checks the chat-essentials and first-run e2e files share: axe with no serious or critical
// violations, and the light / dark / 800x600 screenshot set of one state.
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** Runs axe over the page (or `include`) and fails on any serious or critical violation, naming each. */
export async function assertNoSeriousAxe(p: Page, label: string, include?: string): Promise<void> {
  const builder = new AxeBuilder({ page: p });
  if (include) builder.include(include);
  const result = await builder.analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
    `axe found serious/critical violations on ${label}`,
  );
}

/** Screenshots of the current state in light, in dark, and at 800x600; the page is put back afterwards. */
export async function shotSet(
  p: Page,
  shot: (p: Page, name: string) => Promise<void>,
  name: string,
): Promise<void> {
  const size = p.viewportSize();
  await p.emulateMedia({ colorScheme: 'light' });
  await shot(p, `${name}-light`);
  await p.emulateMedia({ colorScheme: 'dark' });
  await shot(p, `${name}-dark`);
  await assertNoSeriousAxe(p, `${name} (dark)`);
  await p.emulateMedia({ colorScheme: 'light' });
  await p.setViewportSize({ width: 800, height: 600 });
  await shot(p, `${name}-800x600`);
  if (size) await p.setViewportSize(size);
}
