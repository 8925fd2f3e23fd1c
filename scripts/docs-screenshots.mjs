// The documentation's screenshots are the UI gallery's own pictures, so they show the UI as it is:
// tests/e2e/ui-gallery.test.ts writes test-results/e2e/gallery-<view>-<variant>.png, and this
// copies the ones the docs show into docs/. Run the gallery first:
//   TEST_SKIP_BUILD=1 npm test -- ui-gallery && node scripts/docs-screenshots.mjs
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Which gallery picture becomes which file under docs/. */
export const DOC_SCREENSHOTS = {
  'screenshot-tools.png': 'gallery-tools-light.png',
  'screenshot-servers.png': 'gallery-servers-light.png',
  'screenshot-requests.png': 'gallery-requests-cards-light.png',
};

const missing = Object.values(DOC_SCREENSHOTS).filter(
  (shot) => !existsSync(join(root, 'test-results/e2e', shot)),
);
if (missing.length) {
  console.error(
    `docs-screenshots: ${missing.join(', ')} not in test-results/e2e/; run TEST_SKIP_BUILD=1 npm test -- ui-gallery first`,
  );
  process.exit(1);
}
for (const [doc, shot] of Object.entries(DOC_SCREENSHOTS)) {
  copyFileSync(join(root, 'test-results/e2e', shot), join(root, 'docs', doc));
  console.log(`docs/${doc} <- test-results/e2e/${shot}`);
}
