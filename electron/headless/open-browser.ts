import { spawn } from 'node:child_process';
import { checkExternalUrl } from '../host/util/external-url.js';

/** Open a URL in the person's browser with the OS opener; failure is harmless (it was shown). */
function launch(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
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
