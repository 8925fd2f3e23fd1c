import { execFile } from 'node:child_process';
import { delimiter } from 'node:path';

/**
 * An app launched from a dock or launcher does not inherit the PATH a person's shell
 * sets up (nvm, Homebrew, ~/.local/bin), so `npx`/`uvx` would not be found. Ask the
 * login shell once for its PATH and merge it ahead of ours. Windows GUI apps do inherit
 * the user PATH, so there is nothing to do there.
 */
let cached: Promise<string> | undefined;

/** The PATH to launch stdio servers with (resolved once per process). */
export function resolveLoginPath(timeoutMs = 4000): Promise<string> {
  cached ??= readLoginPath(timeoutMs);
  return cached;
}

/** Merge path lists, first occurrence wins, empties dropped. */
export function mergePathLists(...lists: (string | undefined)[]): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const list of lists) {
    for (const p of (list ?? '').split(delimiter)) {
      if (p && !seen.has(p)) {
        seen.add(p);
        out.push(p);
      }
    }
  }
  return out.join(delimiter);
}

async function readLoginPath(timeoutMs: number): Promise<string> {
  const current = process.env.PATH ?? '';
  if (process.platform === 'win32') return current;
  const shell = process.env.SHELL || (process.platform === 'darwin' ? '/bin/zsh' : '/bin/sh');
  const marker = '__MCP_DESK_PATH__';
  const fromShell = await new Promise<string | undefined>((resolve) => {
    execFile(
      shell,
      ['-ilc', `printf '%s%s%s' '${marker}' "$PATH" '${marker}'`],
      { timeout: timeoutMs, env: process.env, encoding: 'utf8' },
      (error, stdout) => {
        if (error) return resolve(undefined);
        // Shell start-up files may print banners; take only what sits between the markers.
        const m = stdout.split(marker);
        resolve(m.length >= 3 ? m[1] : undefined);
      },
    );
  });
  return mergePathLists(fromShell, current);
}
