import type { HostErrorCode } from '../../../shared/ipc/host-error.js';

/**
 * Failures of the operating system, the network and TLS, said the way a person reads them: what
 * happened, where, and the next step ("Connection refused at 127.0.0.1:9 — is the server
 * running?"). The raw text ("fetch failed", "spawn foo ENOENT") stays beside it as secondary.
 */

/** A plain message and the code it travels under. */
export interface PlainFailure {
  code: HostErrorCode;
  message: string;
}

interface SysError {
  code?: unknown;
  syscall?: unknown;
  path?: unknown;
  spawnargs?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
  host?: unknown;
  message?: unknown;
  reason?: unknown;
}

const TLS_WORDS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'its certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate chain has a self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    'its certificate was issued by an authority this computer does not trust',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for a different host name',
  ERR_SSL_WRONG_VERSION_NUMBER: 'it does not speak HTTPS on that port (try http://)',
  EPROTO: 'the secure connection could not be set up (is it really HTTPS?)',
};

/** Every error object down the cause chain (fetch nests the socket's error two deep). */
function* chain(error: unknown): Generator<SysError> {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length && seen.size < 12) {
    const e = queue.shift();
    if (typeof e !== 'object' || e === null || seen.has(e)) continue;
    seen.add(e);
    yield e;
    const r = e as { cause?: unknown; data?: { cause?: unknown }; errors?: unknown };
    queue.push(r.cause, r.data?.cause);
    // Happy-eyeballs connects fail with an AggregateError holding one error per address.
    if (Array.isArray(r.errors)) queue.push(...(r.errors as unknown[]));
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : undefined;
}

function where(e: SysError): string {
  const host = str(e.address) ?? str(e.hostname) ?? str(e.host);
  const port = str(e.port);
  return host ? (port ? `${host}:${port}` : host) : 'that address';
}

/** The plain words for one system error, or undefined when its code is not one we explain. */
function explainOne(e: SysError): PlainFailure | undefined {
  const code = typeof e.code === 'string' ? e.code.toUpperCase() : '';
  const spawned = typeof e.message === 'string' ? /^spawn (\S+)/.exec(e.message) : null;
  const spawn = (typeof e.syscall === 'string' && e.syscall.startsWith('spawn')) || !!spawned;
  const program = str(e.path) ?? spawned?.[1] ?? 'the command';
  switch (code) {
    case 'ENOENT':
      return spawn
        ? { code: 'enoent', message: `Command not found: ${program} — is it installed and on PATH?` }
        : { code: 'enoent', message: `Not found: ${str(e.path) ?? 'the file'} — check the path` };
    case 'EACCES':
      return {
        code: 'eacces',
        message: spawn
          ? `Permission denied running ${program} — is it executable?`
          : `Permission denied: ${str(e.path) ?? where(e)}`,
      };
    case 'ECONNREFUSED':
      return { code: 'econnrefused', message: `Connection refused at ${where(e)} — is the server running?` };
    case 'ENOTFOUND':
      return { code: 'enotfound', message: `Cannot resolve host ${where(e)} — check the URL` };
    case 'EAI_AGAIN':
      return {
        code: 'enotfound',
        message: `Cannot resolve host ${where(e)} right now — check your network connection and the URL`,
      };
    case 'ECONNRESET':
      return {
        code: 'econnreset',
        message: `The connection to ${where(e)} was reset — the server may have crashed or restarted; try again`,
      };
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return {
        code: 'timeout',
        message: `Timed out connecting to ${where(e)} — is the address right, and reachable from here?`,
      };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return {
        code: 'error',
        message: `No route to ${where(e)} — check your network connection and the URL`,
      };
  }
  const tls = TLS_WORDS[code];
  if (tls)
    return {
      code: 'tls_error',
      message: `Secure connection to ${where(e)} failed: ${tls} — fix the server's certificate, or check the URL`,
    };
  // undici refuses the ports browsers block (9, 6000, ...) with a bare "bad port".
  if (e.message === 'bad port')
    return {
      code: 'error',
      message:
        'That port is blocked for web requests (a reserved port such as 9) — run the server on another port',
    };
  return undefined;
}

/** The first failure down the cause chain that we can say in plain words. */
export function plainFailure(error: unknown): PlainFailure | undefined {
  for (const e of chain(error)) {
    const plain = explainOne(e);
    if (plain) return plain;
  }
  return undefined;
}

const UNREACHABLE: Record<string, string> = {
  ENOTFOUND: 'its host name does not resolve; check your network connection and the base URL',
  EAI_AGAIN: 'its host name does not resolve right now; check your network connection',
  ECONNREFUSED: 'nothing is listening there; is the server running, and is the base URL right?',
  ECONNRESET: 'the connection was reset; try again',
  ETIMEDOUT: 'it did not answer in time; check your network connection',
  UND_ERR_CONNECT_TIMEOUT: 'it did not answer in time; check your network connection',
  EHOSTUNREACH: 'there is no route to it; check your network connection',
  ENETUNREACH: 'there is no route to it; check your network connection',
};

/**
 * Why an HTTP API (a model provider) could not be reached, as the tail of "Could not reach X
 * — …": no trailing full stop and no raw code in brackets, so a caller can wrap it as it likes.
 */
export function unreachableReason(error: unknown): string {
  for (const e of chain(error)) {
    const code = typeof e.code === 'string' ? e.code.toUpperCase() : '';
    if (UNREACHABLE[code]) return UNREACHABLE[code];
    if (TLS_WORDS[code]) return `the secure connection failed, ${TLS_WORDS[code]}`;
  }
  return 'check your network connection and the base URL';
}
