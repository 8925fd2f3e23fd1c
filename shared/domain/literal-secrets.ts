import { MASKED_VALUE } from './server-state.js';
import { SERVER_SECRET_NAME } from './server-secrets.js';

/**
 * The one rule for spotting a literal secret in a server entry, shared by the server form (which
 * offers to move it into the keychain) and the host's imports (which move it): mcp-servers.json
 * is plain text, and a key in it ends up in backups, screenshots and shared configs. Found by the
 * key's name (OPENAI_API_KEY, X-Api-Token, Authorization) or by the value's shape (sk-…, ghp_…,
 * xoxb-…, AIza…).
 */

/** Which part of an entry a secret sits in: an environment variable or an HTTP header. */
export type SecretField = 'env' | 'headers';

const SECRET_KEY =
  /(?:api[_-]?key|token|secret|password|passwd|credential|private[_-]?key|access[_-]?key|^authorization$|^auth$)/i;
const SECRET_VALUE = [
  /^sk-[A-Za-z0-9_-]{8,}/, // OpenAI, Anthropic and look-alikes
  /^gh[pousr]_[A-Za-z0-9]{16,}/, // GitHub tokens
  /^github_pat_[A-Za-z0-9_]{16,}/,
  /^xox[abposr]-[A-Za-z0-9-]{8,}/, // Slack
  /^AIza[A-Za-z0-9_-]{20,}/, // Google API keys
  /^glpat-[A-Za-z0-9_-]{16,}/, // GitLab
  /^AKIA[A-Z0-9]{12,}/, // AWS access key ids
];
const SCHEME = /^(Bearer|Basic|Token)\s+(\S.*)$/i;
// Values that are not literals: references the host expands, the mask of a stored value.
const REFERENCE = /^\$\{(?:secret|env):[^}]*\}$/;

/**
 * The literal secret in one `key` = `raw` pair, or undefined when it holds none. In a header,
 * `Bearer x` yields only x (the scheme stays in the entry around the reference).
 */
export function literalSecretValue(key: string, raw: string, field: SecretField): string | undefined {
  let value = raw.trim();
  const scheme = field === 'headers' ? SCHEME.exec(value) : null;
  if (scheme) value = (scheme[2] ?? '').trim();
  if (!value || value === MASKED_VALUE || REFERENCE.test(value) || value.includes('${')) return undefined;
  const byShape = looksLikeSecretValue(value);
  // A secret-sounding key with a short or placeholder value ("true", "xxx") is not worth a prompt.
  const byKey = SECRET_KEY.test(key) && value.length >= 8 && !/^(?:x+|\*+|<.*>|changeme)$/i.test(value);
  return byShape || byKey || (!!scheme && value.length >= 8) ? value : undefined;
}

/** True for a value shaped like a well-known kind of key or token, whatever it is called. */
export function looksLikeSecretValue(value: string): boolean {
  return SECRET_VALUE.some((re) => re.test(value));
}

/** True when a variable, header or option name suggests its value is a secret. */
export function soundsSecret(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** A keychain name for a secret: `<server>.<KEY>`, valid for `${secret:NAME}`, unique against `taken`. */
export function suggestSecretName(server: string, key: string, taken: ReadonlySet<string>): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^[^A-Za-z_]+/, '');
  const base = [clean(server), clean(key)].filter(Boolean).join('.').slice(0, 80) || 'secret';
  let name = SERVER_SECRET_NAME.test(base) ? base : `s_${base}`.slice(0, 80);
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
  return name;
}
