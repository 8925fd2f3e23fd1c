import type { RemoteServerConfig } from '../../../shared/domain/server-config.js';
import { expandRefs, type SecretResolver } from '../config/expand.js';
import type { Redactor } from '../util/redact.js';
import type { DeskOAuthProviderOptions, PreRegisteredClient } from './desk-oauth-provider.js';

/**
 * The Client ID Metadata Document MCP Desk publishes (a public native client, loopback
 * redirects). The SDK uses it only where the authorization server advertises CIMD support
 * and falls back to dynamic registration elsewhere; MCP_DESK_CLIENT_METADATA_URL (or a
 * server's own `oauth.clientMetadataUrl`) overrides it, and an empty value turns CIMD off.
 */
export const DEFAULT_CLIENT_METADATA_URL = 'https://mcpdesk.dev/oauth/client-metadata.json';

/** What resolving a server's OAuth settings needs: env and keychain for `${secret:NAME}`. */
export interface OAuthSettingsContext {
  env: NodeJS.ProcessEnv;
  secrets?: SecretResolver;
  redactor: Redactor;
}

/** The app-wide CIMD URL: the environment's override, or the default. */
export function defaultClientMetadataUrl(env: NodeJS.ProcessEnv): string | undefined {
  const v = env.MCP_DESK_CLIENT_METADATA_URL;
  if (v === undefined) return DEFAULT_CLIENT_METADATA_URL;
  return v.trim() === '' ? undefined : v.trim();
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
    const secret = o.clientSecret !== undefined ? await expandRefs(o.clientSecret, where, ctx.env, ctx.secrets, ctx.redactor) : undefined;
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
