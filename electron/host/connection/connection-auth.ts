import {
  auth,
  UnauthorizedError,
  type AuthProvider,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { HostFailure } from '../util/errors.js';
import { noResponse } from './connect-deadline.js';

/**
 * The connection's side of OAuth, kept here so connection/ never depends on auth/ (auth/
 * supplies providers through ConnectionDeps.authProviderFor instead).
 */

/**
 * Whether a connect failed because the server wants a sign-in: the SDK's UnauthorizedError
 * (possibly wrapped by era negotiation) or a bare HTTP 401 when no auth provider was given.
 */
export function isAuthRequired(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    if (UnauthorizedError.isInstance(e)) return true;
    const status = (e as { status?: unknown }).status ?? (e as { data?: { status?: unknown } }).data?.status;
    if (status === 401) return true;
    e = (e as { cause?: unknown }).cause ?? (e as { data?: { cause?: unknown } }).data?.cause;
  }
  return false;
}

/**
 * Redeem a sign-in's redirect query (`code`; `iss` checked by the SDK, RFC 9207; `state`
 * already compared) with the provider the last connect used. Every request of the exchange
 * (metadata discovery, the token endpoint) ends within `timeoutMs`: a silent authorization
 * server must not hold the sign-in forever.
 */
export async function redeemSignIn(
  serverId: string,
  provider: AuthProvider | OAuthClientProvider | undefined,
  serverUrl: URL | undefined,
  params: URLSearchParams,
  timeoutMs = 60_000,
): Promise<void> {
  const code = params.get('code');
  if (!provider || !('redirectToAuthorization' in provider) || !serverUrl) {
    throw new HostFailure('no_sign_in', `server "${serverId}" has no sign-in in progress`);
  }
  if (!code) throw new HostFailure('sign_in_failed', 'the authorization server sent no code');
  const iss = params.get('iss');
  const deadline = AbortSignal.timeout(timeoutMs);
  const fetchFn: typeof fetch = (input, init) =>
    fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
  try {
    await auth(provider, {
      serverUrl,
      authorizationCode: code,
      fetchFn,
      ...(iss !== null ? { iss } : {}),
    });
  } catch (error) {
    if (deadline.aborted) throw noResponse(timeoutMs, 'redeeming the sign-in at the authorization server');
    throw error;
  }
}
