import {
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  PrivateKeyJwtProvider,
  requestJwtAuthorizationGrant,
  type AuthProvider,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { DeskOAuthProvider } from '../host/auth/desk-oauth-provider.js';
import { memoryTokenVault } from '../host/auth/token-vault.js';
import type { ConformanceContext } from './conformance-context.js';
import type { HeadlessAuthorizer } from './headless-authorizer.js';

/**
 * The Client ID Metadata Document URL the conformance suite expects as our client_id where an
 * authorization server supports CIMD (SEP-991). The suite never fetches it for the flow; a real
 * deployment would serve the app's metadata document there.
 */
export const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** More authorization rounds than this for one server is a loop (e.g. a scope that is never granted). */
export const MAX_AUTHORIZATION_ROUNDS = 3;

type Provider = AuthProvider | OAuthClientProvider;

/**
 * Picks the SDK's provider for the scenario, as a person would by configuring the server:
 * - a private key in the context: the client_credentials grant signed with it (private_key_jwt);
 * - an enterprise IdP ID token: cross-app access (SEP-990), the IdP exchange done by the SDK;
 * - a client id and secret for a `client-credentials` scenario: the client_credentials grant;
 * - otherwise the interactive authorization-code flow through DeskOAuthProvider (PKCE, DCR or
 *   CIMD or the context's pre-registered client), its browser leg followed by `authorizer`.
 * Providers are made once per server and reused across reconnects, so the tokens they hold in
 * memory (and the `state` of a flow in progress) survive finishAuth's reconnect. Nothing here
 * is written to disk or printed.
 */
export function conformanceAuthProviders(
  scenario: string,
  context: ConformanceContext,
  authorizer: HeadlessAuthorizer,
): (serverId: string, url: URL) => Promise<Provider | undefined> {
  const providers = new Map<string, Provider>();
  const vault = memoryTokenVault();

  const make = (serverId: string, url: URL): Provider => {
    const { client_id: clientId, client_secret: clientSecret } = context;
    const expectedIssuer = context.issuer ? { expectedIssuer: context.issuer } : {};
    if (clientId && context.private_key_pem) {
      return new PrivateKeyJwtProvider({
        clientId,
        privateKey: context.private_key_pem,
        algorithm: context.signing_algorithm ?? 'ES256',
        ...expectedIssuer,
      });
    }
    if (
      clientId &&
      clientSecret &&
      context.idp_id_token &&
      context.idp_token_endpoint &&
      context.idp_client_id
    ) {
      const {
        idp_id_token: idToken,
        idp_token_endpoint: tokenEndpoint,
        idp_client_id: idpClientId,
      } = context;
      return new CrossAppAccessProvider({
        clientId,
        clientSecret,
        ...expectedIssuer,
        // The SDK found the MCP server's authorization server and resource (RFC 9728) first:
        // the grant is bound to exactly those.
        assertion: async (ctx) => {
          const grant = await requestJwtAuthorizationGrant({
            tokenEndpoint,
            audience: ctx.authorizationServerUrl,
            resource: ctx.resourceUrl,
            idToken,
            clientId: idpClientId,
            ...(ctx.scope ? { scope: ctx.scope } : {}),
            fetchFn: ctx.fetchFn,
          });
          return grant.jwtAuthGrant;
        },
      });
    }
    if (clientId && clientSecret && scenario.includes('client-credentials')) {
      return new ClientCredentialsProvider({ clientId, clientSecret, ...expectedIssuer });
    }
    const provider: DeskOAuthProvider = new DeskOAuthProvider({
      serverId,
      serverUrl: url.href,
      vault,
      redirectUrl: () => authorizer.redirectUrl,
      clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
      ...(clientId ? { preRegistered: { clientId, ...(clientSecret ? { clientSecret } : {}) } } : {}),
      onRedirect: async (authorizationUrl) => {
        if (authorizer.roundsFor(serverId) >= MAX_AUTHORIZATION_ROUNDS) {
          throw new Error(
            `gave up after ${MAX_AUTHORIZATION_ROUNDS} authorization attempts: the server keeps asking for more`,
          );
        }
        await authorizer.follow(serverId, authorizationUrl, provider.lastState);
      },
    });
    return provider;
  };

  return async (serverId, url) => {
    let provider = providers.get(serverId);
    if (!provider) {
      provider = make(serverId, url);
      providers.set(serverId, provider);
    }
    return provider;
  };
}
