import type { RemoteServerConfig } from '../../../shared/domain/server-config.js';
import { expandRefs, type SecretResolver } from '../config/expand.js';
import type { Redactor } from '../util/redact.js';
import type { DeskOAuthProviderOptions, PreRegisteredClient } from './desk-oauth-provider.js';

/**
 * Where MCP Desk's Client ID Metadata Document is to be published (its content is
 * docs/oauth/client-metadata.json: a public native client with loopback redirects).
 * An authorization server that supports CIMD fetches this URL, so pointing at a document
 * that is not online would break every such sign-in: until it is published the default is
 * off and dynamic registration is used. MCP_DESK_CLIENT_METADATA_URL (or a server's own
 * `oauth.clientMetadataUrl`) turns it on; MCP_DESK_CLIENT_METADATA_URL=default uses this URL.
 */
export const DEFAULT_CLIENT_METADATA_URL = 'https://mcpdesk.dev/oauth/client-metadata.json';

/** What resolving a server's OAuth settings needs: env and keychain for `${secret:NAME}`. */
export interface OAuthSettingsContext {
  env: NodeJS.ProcessEnv;
  secrets?: SecretResolver;
  redactor: Redactor;
}

/** The app-wide CIMD URL: none unless the environment names one (or `default`). */
export function defaultClientMetadataUrl(env: NodeJS.ProcessEnv): string | undefined {
  const v = env.MCP_DESK_CLIENT_METADATA_URL?.trim();
  if (!v) return undefined;
  return v === 'default' ? DEFAULT_CLIENT_METADATA_URL : v;
}

/**
 * The provider options a server's config implies: a pre-registered client (its secret
 * resolved from the keychain and taught to the redactor), scopes, and the CIMD URL.
 */
export async function oauthSettings(
  serverId: string,
  config: RemoteServerConfig,
  ctx: OAuthSettingsContext,
): Promise<Pick<DeskOAuthProviderOptions, 'preRegistered' | 'scope' | 'clientMetadataUrl'>> {
  const o = config.oauth;
  let preRegistered: PreRegisteredClient | undefined;
  if (o?.clientId) {
    const where = { server: serverId, field: 'oauth.clientSecret' };
    const secret =
      o.clientSecret !== undefined
        ? await expandRefs(o.clientSecret, where, ctx.env, ctx.secrets, ctx.redactor)
        : undefined;
    // A literal secret in the config is still a secret in every output.
    if (secret) ctx.redactor.addSecret(secret);
    preRegistered = { clientId: o.clientId, ...(secret ? { clientSecret: secret } : {}) };
  }
  const cimd = o?.clientMetadataUrl ?? defaultClientMetadataUrl(ctx.env);
  return {
    ...(preRegistered ? { preRegistered } : {}),
    ...(o?.scope ? { scope: o.scope } : {}),
    ...(cimd ? { clientMetadataUrl: cimd } : {}),
  };
}
