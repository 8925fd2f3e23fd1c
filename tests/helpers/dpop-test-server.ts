/**
 * A tiny authorization server plus resource server on one loopback port, for the DPoP unit
 * tests: RFC 9728/8414 metadata (with or without `dpop_signing_alg_values_supported`), dynamic
 * registration, a token endpoint that checks the DPoP proof (dpop-verify.ts) and binds a JWT
 * access token to its key (`cnf.jkt`), and an `/mcp` endpoint that checks the DPoP scheme, the
 * proof, `ath` and `cnf.jkt`. Nonces, if asked for, are demanded by either side; every request
 * is recorded so tests can count retries.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { DpopVerifier, type ProofVerdict } from '../fixtures/dpop-verify.js';

export interface DpopServerOptions {
  /** `dpop_signing_alg_values_supported` as advertised; undefined leaves the member out. */
  algs?: string[];
  /** The token endpoint demands this nonce (use_dpop_nonce on a proof without it). */
  asNonce?: string;
  /** The MCP endpoint demands this nonce. */
  rsNonce?: string;
  /** The MCP endpoint demands a nonce and moves on to a new one after every challenge. */
  rotateRsNonce?: boolean;
  /** Issue a Bearer (unbound) token even when a proof came with the request. */
  unboundToken?: boolean;
}

/** One request the server saw. */
export interface SeenRequest {
  path: string;
  method: string;
  authorization?: string;
  dpop?: string;
  verdict?: ProofVerdict;
  status: number;
}

export interface DpopTestServer {
  origin: string;
  mcpUrl: string;
  tokenUrl: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

const HS_KEY = new TextEncoder().encode('dpop-unit-test-signing-key-not-secret-32b');

/** Starts the server on 127.0.0.1 with a random port. */
export async function startDpopServer(options: DpopServerOptions): Promise<DpopTestServer> {
  const seen: SeenRequest[] = [];
  const asVerifier = new DpopVerifier();
  const rsVerifier = new DpopVerifier();
  let rsNonce = options.rotateRsNonce ? 'rs-nonce-0' : options.rsNonce;
  let rotations = 0;
  const server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mcpUrl = `${origin}/mcp`;
  const tokenUrl = `${origin}/token`;

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const body = await readBody(req);
    const dpop = typeof req.headers.dpop === 'string' ? req.headers.dpop : undefined;
    const record: SeenRequest = {
      path: url.pathname,
      method: req.method ?? 'GET',
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      ...(dpop ? { dpop } : {}),
      status: 200,
    };
    seen.push(record);
    const reply = (status: number, payload: unknown, headers?: Record<string, string>) => {
      record.status = status;
      json(res, status, payload, headers);
    };
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource'))
      return reply(200, { resource: mcpUrl, authorization_servers: [origin] });
    if (url.pathname === '/.well-known/oauth-authorization-server')
      return reply(200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: tokenUrl,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        ...(options.algs ? { dpop_signing_alg_values_supported: options.algs } : {}),
      });
    if (url.pathname === '/register') return reply(201, { ...JSON.parse(body), client_id: 'unit-client' });
    if (url.pathname === '/token') {
      if (!dpop) return reply(200, { access_token: 'plain-bearer-token-1', token_type: 'Bearer' });
      const verdict = await asVerifier.verify({
        proof: dpop,
        method: record.method,
        url: tokenUrl,
        ...(options.asNonce ? { nonce: options.asNonce } : {}),
      });
      record.verdict = verdict;
      if (!verdict.ok && verdict.nonceMissing)
        return reply(
          400,
          { error: 'use_dpop_nonce', error_description: 'nonce required' },
          { 'dpop-nonce': options.asNonce ?? '' },
        );
      if (!verdict.ok) return reply(400, { error: 'invalid_dpop_proof', error_description: verdict.error });
      if (options.unboundToken) return reply(200, { access_token: 'unbound-token-1', token_type: 'Bearer' });
      const token = await new SignJWT({ cnf: { jkt: verdict.jkt } })
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(HS_KEY);
      return reply(200, { access_token: token, token_type: 'DPoP', expires_in: 3600 });
    }
    if (url.pathname === '/mcp') {
      const [, scheme, token] = /^(\S+) (.+)$/.exec(req.headers.authorization ?? '') ?? [];
      if (!token) return reply(401, { error: 'unauthorized' }, { 'www-authenticate': 'DPoP' });
      if (scheme !== 'DPoP') return reply(200, { scheme });
      const verdict = await rsVerifier.verify({
        proof: dpop,
        method: record.method,
        url: mcpUrl,
        accessToken: token,
        ...(rsNonce ? { nonce: rsNonce } : {}),
      });
      record.verdict = verdict;
      if (!verdict.ok && verdict.nonceMissing) {
        // A rotating server has moved on by the time the client retries with what it was given.
        const nonce = rsNonce ?? '';
        if (options.rotateRsNonce) rsNonce = `rs-nonce-${++rotations}`;
        return reply(
          401,
          { error: 'use_dpop_nonce' },
          { 'www-authenticate': 'DPoP error="use_dpop_nonce"', 'dpop-nonce': nonce },
        );
      }
      if (!verdict.ok) return reply(401, { error: 'invalid_token', why: verdict.error });
      return reply(200, { scheme, jkt: verdict.jkt });
    }
    reply(404, { error: 'not found' });
  }

  return {
    origin,
    mcpUrl,
    tokenUrl,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if ((req.headers['content-type'] ?? '').includes('json') || !text) return text || '{}';
  return JSON.stringify(Object.fromEntries(new URLSearchParams(text)));
}
