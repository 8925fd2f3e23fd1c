// One state of the app seen three ways, as the gallery sees every view (issue 24, Must show): the
// page as it is now in light, dark and an 800x600 window, each kept as a screenshot, each checked
// by axe. The page is left as it was found (its viewport, the light scheme), so the flow goes on.
import type { Locator, Page } from 'playwright-core';
import { assertAccessible, type AxeScope } from './axe.js';
import { saveScreenshot } from './chromium.js';
import { GALLERY_VARIANTS, applyVariant } from './ui-gallery.js';

/** What to show and check in each variant. */
export interface VariantShotOptions {
  /** Scrolled into view in each variant before the picture (the card under test). */
  show?: Locator;
  /** Where axe looks (default: the whole page). */
  axe?: AxeScope;
}

/**
 * Saves test-results/e2e/<name>-<light|dark|800x600>.png of the page as it stands, with axe at
 * zero serious or critical violations in each; then puts the page back in light at its viewport.
 */
export async function shotInVariants(p: Page, name: string, opts: VariantShotOptions = {}): Promise<void> {
  const size = p.viewportSize();
  try {
    for (const variant of GALLERY_VARIANTS) {
      await applyVariant(p, variant);
      await opts.show?.scrollIntoViewIfNeeded();
      await saveScreenshot(p, `${name}-${variant.name}`, false);
      await assertAccessible(p, `${name} (${variant.name})`, opts.axe ?? {});
    }
  } finally {
    if (size) await p.setViewportSize(size);
    await p.emulateMedia({ colorScheme: 'light' });
  }
}
