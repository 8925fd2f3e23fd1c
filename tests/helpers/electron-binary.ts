// Whether the desktop app can run here through Playwright's `_electron`, shared by the Electron
// e2e files. The Electron binary is downloaded at install time from a CDN this project's CI cannot
// reach (package.json `allowScripts` keeps it off), and Linux needs a display; where either is
// missing the files skip with the reason printed. MCP_DESK_REQUIRE_ELECTRON=1 (set by
// .github/workflows/ci.yml) turns every such skip into a failure: there they must run.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repoRoot } from './browser-mode.js';

/** The built main-process entry the app starts from. */
export const ELECTRON_MAIN = join(repoRoot, 'out', 'main', 'index.cjs');

/** The Electron binary's path, or why there is none. */
export function electronBinary(): { path: string } | { reason: string } {
  try {
    // The electron package's main export is the binary's path; it throws when none was downloaded.
    const path = createRequire(import.meta.url)('electron') as unknown;
    if (typeof path !== 'string' || !existsSync(path))
      return { reason: `the Electron binary is not at ${String(path)}` };
    return { path };
  } catch (error) {
    return {
      reason: `no Electron binary (${(error as Error).message.split('\n')[0]}); this machine cannot download it`,
    };
  }
}

/** Why the desktop app cannot run here, or null. */
export function electronSkipReason(binary: ReturnType<typeof electronBinary>): string | null {
  if ('reason' in binary) return binary.reason;
  if (!existsSync(ELECTRON_MAIN)) return `${ELECTRON_MAIN} is not built (node scripts/build.mjs)`;
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'no display (DISPLAY unset): run under xvfb-run';
  return null;
}

/** CI has the binary and a display: a skip there would hide that the app was never run. */
export const electronRequired = process.env.MCP_DESK_REQUIRE_ELECTRON === '1';
