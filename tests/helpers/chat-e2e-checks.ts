// Checks the chat-essentials and first-run e2e files share: axe with no serious or critical
// violations, and the light / dark / 800x600 screenshot set of one state.
import type { Page } from 'playwright-core';
import { assertAccessible } from './axe.js';

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
  await assertAccessible(p, `${name} (dark)`);
  await p.emulateMedia({ colorScheme: 'light' });
  await p.setViewportSize({ width: 800, height: 600 });
  await shot(p, `${name}-800x600`);
  if (size) await p.setViewportSize(size);
}
