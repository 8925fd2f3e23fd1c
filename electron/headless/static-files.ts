import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/**
 * The same policy the Electron window enforces, so browser mode is no weaker. Frames may come
 * only from MCP App views' proxy pages (`frameSrc`, their hosts and the `/view/` path), or from
 * nowhere.
 */
export function appCsp(frameSrc?: string): string {
  return (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; " +
    `connect-src 'self' ws://127.0.0.1:* ws://localhost:*; object-src 'none'; base-uri 'none'; frame-src ${frameSrc ?? "'none'"}; frame-ancestors 'none'; form-action 'none'`
  );
}

/** The policy with no frames at all. */
export const CSP = appCsp();

/** Serve one file of the built renderer; paths can never leave the root. */
export async function serveStatic(
  root: string,
  urlPath: string,
  res: ServerResponse,
  csp: string = CSP,
): Promise<void> {
  const rootAbs = resolve(root);
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return send(res, 400, 'bad path');
  }
  if (rel === '/' || rel === '') rel = '/index.html';
  const file = resolve(join(rootAbs, normalize(rel)));
  if (file !== rootAbs && !file.startsWith(rootAbs + sep)) return send(res, 403, 'forbidden');
  try {
    const body = await readFile(file);
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'Cross-Origin-Opener-Policy': 'same-origin',
    });
    res.end(body);
  } catch {
    send(res, 404, 'not found');
  }
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}
