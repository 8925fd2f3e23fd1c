// The UI sweep's moving parts: the variants every view is shown in (light, dark, 800x600) and the
// layout checks a narrow window must pass. tests/e2e/ui-gallery.test.ts holds the table of views.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { saveScreenshot } from './chromium.js';

/** One way of looking at the app: a colour scheme and a viewport. */
export interface GalleryVariant {
  name: 'light' | 'dark' | '800x600';
  colorScheme: 'light' | 'dark';
  viewport: { width: number; height: number };
}

/** Light and dark at the default desktop size, then light in a small 800x600 window. */
export const GALLERY_VARIANTS: readonly GalleryVariant[] = [
  { name: 'light', colorScheme: 'light', viewport: { width: 1400, height: 900 } },
  { name: 'dark', colorScheme: 'dark', viewport: { width: 1400, height: 900 } },
  { name: '800x600', colorScheme: 'light', viewport: { width: 800, height: 600 } },
];

/** One row of the gallery: how to reach a view (or a card) from anywhere in the app. */
export interface GalleryEntry {
  /** The screenshot's name part: test-results/e2e/gallery-<name>-<variant>.png. */
  name: string;
  /** Brings the page to the state worth a picture; must work from any other entry's state. */
  open: (p: Page) => Promise<void>;
  /** Checks particular to a narrow window (after the shared ones in {@link assertNarrowLayout}). */
  narrow?: (p: Page) => Promise<void>;
}

/** Puts the page into `variant` (viewport and prefers-color-scheme). */
export async function applyVariant(p: Page, variant: GalleryVariant): Promise<void> {
  await p.setViewportSize(variant.viewport);
  await p.emulateMedia({ colorScheme: variant.colorScheme });
}

/** What every view must hold in a small window: collapsed nav, no sideways scrolling. */
export async function assertNarrowLayout(p: Page, where: string): Promise<void> {
  // A string: the tests compile without DOM types, the page has them.
  const layout = await p.evaluate<{
    navWidth: number;
    labelShown: boolean;
    overflowX: number;
    bodyOverflowX: number;
  }>(`(() => {
    const nav = document.querySelector('.nav');
    const label = document.querySelector('.nav-item .nav-label');
    const scroller = document.scrollingElement ?? document.documentElement;
    return {
      navWidth: nav ? nav.getBoundingClientRect().width : -1,
      labelShown: label ? label.getBoundingClientRect().width > 1 : false,
      overflowX: scroller.scrollWidth - scroller.clientWidth,
      bodyOverflowX: document.body.scrollWidth - document.body.clientWidth,
    };
  })()`);
  assert.ok(
    layout.navWidth > 0 && layout.navWidth <= 72,
    `${where}: nav collapsed to icons (${layout.navWidth}px)`,
  );
  assert.equal(layout.labelShown, false, `${where}: nav labels hidden in a narrow window`);
  assert.ok(
    layout.overflowX <= 0 && layout.bodyOverflowX <= 0,
    `${where}: no horizontal scroll (${layout.overflowX}/${layout.bodyOverflowX}px too wide)`,
  );
}

/** `selector`'s box lies within the viewport (it can be seen without scrolling the page). */
export async function assertInViewport(p: Page, selector: string, where: string): Promise<void> {
  const box = await p.locator(selector).first().boundingBox();
  const size = p.viewportSize();
  assert.ok(box && size, `${where}: ${selector} is on the page`);
  assert.ok(
    box.y >= 0 && box.y < size.height - 40 && box.x >= 0 && box.x + Math.min(box.width, 200) <= size.width,
    `${where}: ${selector} starts inside the ${size.width}x${size.height} viewport (at ${Math.round(box.x)},${Math.round(box.y)})`,
  );
}

/** Saves the gallery picture of `entry` in `variant`: the viewport, as a person sees it. */
export function galleryShot(p: Page, entry: GalleryEntry, variant: GalleryVariant): Promise<void> {
  return saveScreenshot(p, `gallery-${entry.name}-${variant.name}`, false);
}
