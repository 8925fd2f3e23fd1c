import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HostFailure } from '../util/errors.js';

/** What the authorization server's redirect brought back, once `state` matched. */
export type RedirectOutcome =
  { ok: true; params: URLSearchParams } | { ok: false; code: string; reason: string };

export interface LoopbackRedirectOptions {
  /** The `state` the flow sent; read when the redirect arrives (the SDK makes it after the listener starts). */
  expectedState: () => string | undefined;
  /** How long the person has to finish in the browser. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const PATH = '/callback';

/**
 * The page the browser lands on. Fixed text only: nothing from the query is reflected,
 * so a crafted redirect cannot inject markup into a page served from 127.0.0.1.
 */
function page(ok: boolean): string {
  const title = ok ? 'Signed in' : 'Sign-in did not complete';
  const body = ok
    ? 'You are signed in. You can close this tab and return to MCP Desk.'
    : 'The sign-in did not complete. You can close this tab and try again in MCP Desk.';
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;margin:3em"><h1>${title}</h1><p>${body}</p></body></html>`;
}

/** OAuth error codes are a short ASCII token (RFC 6749 §4.1.2.1); anything else is not shown. */
function safeErrorCode(raw: string | null): string {
  return raw && /^[a-z_]{1,64}$/.test(raw) ? raw : 'unknown_error';
}

/**
 * A one-shot loopback redirect listener (RFC 8252 §7.3): 127.0.0.1 only, a random port,
 * one flow. It settles once — with the query when `state` matches, or with a failure on a
 * `state` mismatch, an `error=` from the authorization server, a timeout or a cancel — and
 * closes itself. A mismatched `state` never passes the code on. The AS's free-text
 * `error_description` is not surfaced: the redirect may not come from the real issuer
 * (RFC 9207), so only the error code, a fixed token, reaches the UI.
 */
export class LoopbackRedirect {
  private server?: Server;
  private port = 0;
  private settle?: (outcome: RedirectOutcome) => void;
  private readonly outcome: Promise<RedirectOutcome>;
  private timer?: NodeJS.Timeout;
  private done = false;

  constructor(private readonly opts: LoopbackRedirectOptions) {
    this.outcome = new Promise((resolve) => (this.settle = resolve));
  }

  /** Bind 127.0.0.1 on a random port; resolves with the redirect URI to register and send. */
  async start(): Promise<string> {
    const server = createServer((req, res) => this.onRequest(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.timer = setTimeout(
      () => this.finish({ ok: false, code: 'timeout', reason: 'the sign-in was not finished in time' }),
      this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    return this.redirectUri;
  }

  get redirectUri(): string {
    if (!this.port) throw new HostFailure('internal', 'the loopback listener has not started');
    return `http://127.0.0.1:${this.port}${PATH}`;
  }

  /** Settles once: the matched query, or why the sign-in failed. */
  wait(): Promise<RedirectOutcome> {
    return this.outcome;
  }

  /** Give up (the person cancelled, or the flow failed before the browser returned). */
  cancel(reason = 'the sign-in was cancelled'): void {
    this.finish({ ok: false, code: 'cancelled', reason });
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== PATH || this.done) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const params = url.searchParams;
    const expected = this.opts.expectedState();
    let outcome: RedirectOutcome;
    if (!expected || params.get('state') !== expected) {
      outcome = {
        ok: false,
        code: 'state_mismatch',
        reason: 'the browser came back with a sign-in this app did not start (state mismatch)',
      };
    } else if (params.has('error')) {
      const code = safeErrorCode(params.get('error'));
      outcome = {
        ok: false,
        code,
        reason:
          code === 'access_denied'
            ? 'access was denied at the sign-in page'
            : `the authorization server refused the sign-in (${code})`,
      };
    } else if (!params.get('code')) {
      outcome = { ok: false, code: 'no_code', reason: 'the authorization server sent no code' };
    } else outcome = { ok: true, params: new URLSearchParams(params) };
    res.writeHead(outcome.ok ? 200 : 400, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      'referrer-policy': 'no-referrer',
    });
    res.end(page(outcome.ok));
    this.finish(outcome);
  }

  private finish(outcome: RedirectOutcome): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.settle?.(outcome);
    const server = this.server;
    // Let the landing page go out first; idle keep-alive sockets must not hold the port.
    setImmediate(() => {
      server?.close();
      server?.closeIdleConnections();
    });
  }
}
