import { isStdioConfig, type ServerConfig } from '../../../shared/domain/server-config.js';
import { MASKED_VALUE } from '../../../shared/domain/server-state.js';
import { isSecretKey } from '../util/redact.js';

/**
 * Secrets never cross to the renderer: env values and headers whose names look secret
 * (and any Authorization header) are replaced with a mask. References like
 * `${secret:NAME}` are not secrets themselves and are shown as written.
 */
export function maskConfig(config: ServerConfig): ServerConfig {
  if (isStdioConfig(config)) {
    return config.env ? { ...config, env: maskMap(config.env) } : config;
  }
  const masked = config.headers ? { ...config, headers: maskMap(config.headers) } : config;
  // A literal client secret is masked like a header; a ${secret:NAME} reference is shown.
  const secret = masked.oauth?.clientSecret;
  if (masked.oauth && secret !== undefined && !isRef(secret))
    return { ...masked, oauth: { ...masked.oauth, clientSecret: MASKED_VALUE } };
  return masked;
}

function isRef(v: string): boolean {
  return /^\$\{(env|secret):[^}]+\}$/.test(v);
}

/** Undo masking for an update: a value still equal to the mask keeps the stored value. */
export function unmaskConfig(next: ServerConfig, previous: ServerConfig | undefined): ServerConfig {
  if (!previous) return next;
  if (isStdioConfig(next)) {
    const prevEnv = isStdioConfig(previous) ? previous.env : undefined;
    return next.env ? { ...next, env: unmaskMap(next.env, prevEnv) } : next;
  }
  const prevHeaders = isStdioConfig(previous) ? undefined : previous.headers;
  const out = next.headers ? { ...next, headers: unmaskMap(next.headers, prevHeaders) } : next;
  if (out.oauth?.clientSecret !== MASKED_VALUE) return out;
  const prevSecret = isStdioConfig(previous) ? undefined : previous.oauth?.clientSecret;
  const { clientSecret: _masked, ...oauth } = out.oauth;
  return { ...out, oauth: prevSecret !== undefined ? { ...oauth, clientSecret: prevSecret } : oauth };
}

function maskMap(map: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map)) {
    out[k] = !isRef(v) && isSecretKey(k) ? MASKED_VALUE : v;
  }
  return out;
}

function unmaskMap(
  map: Record<string, string>,
  prev: Record<string, string> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map)) {
    if (v === MASKED_VALUE) {
      if (prev?.[k] !== undefined) out[k] = prev[k];
      // A mask with nothing behind it is dropped rather than stored as the literal mask.
    } else out[k] = v;
  }
  return out;
}
