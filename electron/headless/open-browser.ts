import { spawn } from 'node:child_process';

/** Open a loopback URL in the person's browser; failure is harmless (the URL is printed). */
export function openInBrowser(url: string): void {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(url)) return;
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener on this machine: the printed URL is enough.
  }
}
