import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import type { BundleCompatibility, BundleServerType } from '../../../shared/domain/bundles.js';
import { satisfiesRange } from './version-range.js';

/** What the compatibility check looks at (the running process by default; tests vary it). */
export interface CompatContext {
  platform: NodeJS.Platform;
  /** The Node bundles run on: the app's own (Electron's in the desktop app). */
  nodeVersion: string;
  /** The PATH stdio servers get (the login shell's in the desktop app). */
  path: () => Promise<string>;
  pathExt?: string;
}

/** The manifest's compatibility section (the fields we check). */
export interface ManifestCompat {
  platforms?: string[];
  runtimes?: { node?: string; python?: string };
}

/**
 * Can this bundle run here? Platforms against ours, runtimes.node against the Node bundles run
 * on, and for python/uv bundles whether that program is on PATH (the app ships neither).
 */
export async function checkCompatibility(
  compat: ManifestCompat | undefined,
  type: BundleServerType,
  ctx: CompatContext,
): Promise<BundleCompatibility> {
  const problems: string[] = [];
  const platforms = compat?.platforms;
  if (platforms && platforms.length > 0 && !platforms.includes(ctx.platform))
    problems.push(`made for ${platforms.join(', ')}; this computer runs ${ctx.platform}`);
  const node = compat?.runtimes?.node;
  if (node && type === 'node') {
    const ok = satisfiesRange(ctx.nodeVersion, node);
    if (ok === false) problems.push(`needs Node ${node}; this app runs Node ${ctx.nodeVersion}`);
  }
  if (type === 'python' || type === 'uv') {
    const wanted = type === 'uv' ? ['uv'] : ['python3', 'python'];
    const found = await findOnPath(wanted, await ctx.path(), ctx.platform, ctx.pathExt);
    if (!found)
      problems.push(
        type === 'uv'
          ? 'needs uv, which is not on PATH: install uv (https://docs.astral.sh/uv/) and try again'
          : 'needs Python, which is not on PATH: install Python 3 and try again',
      );
  }
  return {
    ok: problems.length === 0,
    problems,
    ...(platforms ? { platforms } : {}),
    ...(compat?.runtimes ? { runtimes: compat.runtimes } : {}),
  };
}

/** The first of `names` found as an executable file on PATH, or undefined. */
async function findOnPath(
  names: string[],
  path: string,
  platform: NodeJS.Platform,
  pathExt = '.EXE;.CMD;.BAT',
): Promise<string | undefined> {
  const exts = platform === 'win32' ? ['', ...pathExt.split(';').filter(Boolean)] : [''];
  for (const dir of path.split(platform === 'win32' ? ';' : delimiter).filter(Boolean)) {
    for (const name of names) {
      for (const ext of exts) {
        const candidate = join(dir, name + ext);
        try {
          await access(candidate, platform === 'win32' ? constants.F_OK : constants.X_OK);
          return candidate;
        } catch {
          // Not here; keep looking.
        }
      }
    }
  }
  return undefined;
}
