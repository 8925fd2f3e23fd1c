import { spawn } from 'node:child_process';
import { checkExternalUrl } from '../host/util/external-url.js';

/**
 * The opener: MCP_DESK_OPEN_COMMAND when set (a program given the URL as its one argument;
 * tests use it to hand sign-in pages to Playwright instead of a desktop browser), else the OS's.
 */
function opener(url: string): [string, string[]] {
  const custom = process.env.MCP_DESK_OPEN_COMMAND;
  if (custom) return [custom, [url]];
  return process.platform === 'darwin'
    ? ['open', [url]]
    : process.platform === 'win32'
      ? ['cmd', ['/c', 'start', '', url]]
      : ['xdg-open', [url]];
}

/** Open a URL in the person's browser with the OS opener; failure is harmless (it was shown). */
function launch(url: string): void {
  const [cmd, args] = opener(url);
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener on this machine: the URL was printed or shown.
  }
}

/** Open browser mode's own loopback page. */
export function openInBrowser(url: string): void {
  if (/^http:\/\/127\.0\.0\.1:\d+\//.test(url)) launch(url);
}

/**
 * Open a URL a server asked for (URL elicitation), after the person consented in the UI:
 * only http(s) without credentials, as in the desktop app's shell.openExternal path.
 */
export async function openExternalChecked(url: string): Promise<void> {
  const safe = checkExternalUrl(url);
  if (!safe) throw new Error('only http(s) links without credentials are opened');
  launch(safe);
}
