/**
 * Secret redaction for everything that leaves the host as text: traces, logs, errors.
 * Two layers: keys that name secrets are blanked whatever their value, and known secret
 * values (resolved ${secret:..} references, header values) are scrubbed wherever they
 * appear, even inside free text.
 */

export const REDACTED = '[redacted]';

// Words (or word parts) that always name a secret: "dbPassword", "client_secret", "X-Api-Key".
const SECRET_WORD = /(authorization|secret|password|passwd|passphrase|apikey|cookie|credential)/;
// Two-word names of secrets.
const SECRET_PAIRS: readonly (readonly [string, string])[] = [
  ['api', 'key'],
  ['private', 'key'],
  ['access', 'key'],
];
// A "token" next to one of these counts or points at something (maxTokens, progressToken,
// nextPageToken, token_type, tokenEndpoint): not a credential.
const NOT_A_CREDENTIAL = new Set(
  (
    'progress page next prev previous cursor continuation sync max min limit count total usage budget ' +
    'input output prompt completion cached cache thought thoughts reasoning candidates estimated remaining ' +
    'per num type kind name expiry expires expiration lifetime endpoint url uri length size'
  ).split(' '),
);
// Plural "tokens" is a count unless one of these says which credentials they are.
const CREDENTIAL_KIND = new Set(['access', 'refresh', 'auth', 'bearer', 'id', 'session', 'api', 'oauth']);
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/=]{6,}/g;
// RFC 9449's scheme: only a credential-shaped word (long, with a digit or token punctuation),
// so prose such as "DPoP proofs are required" survives.
const DPOP_CREDENTIAL = /\b(DPoP)\s+(?=[A-Za-z0-9\-._~+/=]*[0-9\-._~+/=])[A-Za-z0-9\-._~+/=]{16,}/g;

const AUTH_SCHEME_VALUE = /^\s*(?:Bearer|Basic|DPoP|Token)\s+(\S+)\s*$/i;

/** A key's words, lower-cased: camelCase, snake_case, kebab-case and ACRONYMWords split. */
function wordsOf(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * True when a field or header name says its value is a secret: a password, a secret, an API
 * key, a cookie, a credential token. Names that merely mention tokens as units or pointers
 * (maxTokens, progressToken, nextPageToken, totalTokens) are not: their values are shown.
 */
export function isSecretKey(key: string): boolean {
  // Every traced and audited message asks again for the same few keys ("method", "params",
  // "arguments"…): the answer is remembered (bounded, so a hostile server's endless fresh keys
  // cannot grow it).
  const known = secretKeys.get(key);
  if (known !== undefined) return known;
  const secret = judgeKey(key);
  if (secretKeys.size >= 10_000) secretKeys.clear();
  secretKeys.set(key, secret);
  return secret;
}

const secretKeys = new Map<string, boolean>();

function judgeKey(key: string): boolean {
  if (/^dpop$/i.test(key)) return true;
  const words = wordsOf(key);
  if (words.some((w) => SECRET_WORD.test(w))) return true;
  if (SECRET_PAIRS.some(([a, b]) => words.some((w, i) => w === a && words[i + 1] === b))) return true;
  return words.some((w, i) => {
    const plural = w.endsWith('tokens');
    if (!plural && !w.endsWith('token')) return false;
    // A run-together name ("githubtoken", "maxtokens") carries its qualifier inside the word.
    const stem = w.slice(0, w.length - (plural ? 6 : 5));
    const others = [...words.slice(0, i), ...words.slice(i + 1), ...(stem ? [stem] : [])];
    if (plural) return others.some((o) => CREDENTIAL_KIND.has(o));
    return !others.some((o) => NOT_A_CREDENTIAL.has(o));
  });
}

/** Holds the secret values currently in use so they can be scrubbed from any text. */
export class Redactor {
  private readonly values = new Set<string>();

  /** Remember a value that must never appear in output (short values are ignored: too many false hits). */
  addSecret(value: string): void {
    if (value.length >= 6) this.values.add(value);
    // A header value such as "Bearer <token>": the token alone is just as secret (an error or a
    // stack can quote it without its scheme).
    const credential = AUTH_SCHEME_VALUE.exec(value)?.[1];
    if (credential && credential.length >= 6) this.values.add(credential);
  }

  /** Scrub known secret values and bearer credentials from free text. */
  redactText(text: string): string {
    let out = text;
    // Both patterns are case-sensitive and start with their scheme's name: a text without one
    // (nearly every text an audit record or a trace holds) skips two regular expression scans.
    if (out.includes('Bearer') || out.includes('Basic'))
      out = out.replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
    if (out.includes('DPoP'))
      out = out.replace(DPOP_CREDENTIAL, (_m, scheme: string) => `${scheme} ${REDACTED}`);
    for (const v of this.values) {
      if (out.includes(v)) out = out.split(v).join(REDACTED);
    }
    return out;
  }

  /** Deep-copy a JSON value with secret-named fields blanked and secret values scrubbed. */
  redactValue(value: unknown, depth = 0): unknown {
    if (depth > 64) return REDACTED;
    if (typeof value === 'string') return this.redactText(value);
    if (Array.isArray(value)) return value.map((v) => this.redactValue(v, depth + 1));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        out[k] =
          isSecretKey(k) && (typeof v === 'string' || typeof v === 'number')
            ? REDACTED
            : this.redactValue(v, depth + 1);
      }
      return out;
    }
    return value;
  }
}
