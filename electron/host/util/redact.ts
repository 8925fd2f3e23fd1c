/**
 * Secret redaction for everything that leaves the host as text: traces, logs, errors.
 * Two layers: keys that name secrets are blanked whatever their value, and known secret
 * values (resolved ${secret:..} references, header values) are scrubbed wherever they
 * appear, even inside free text.
 */

export const REDACTED = '[redacted]';

const SECRET_KEY =
  /(authorization|token|secret|password|passwd|api[-_]?key|apikey|cookie|credential|private[-_]?key|client[-_]?secret|access[-_]?key|^dpop$)/i;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/=]{6,}/g;
// RFC 9449's scheme: only a credential-shaped word (long, with a digit or token punctuation),
// so prose such as "DPoP proofs are required" survives.
const DPOP_CREDENTIAL = /\b(DPoP)\s+(?=[A-Za-z0-9\-._~+/=]*[0-9\-._~+/=])[A-Za-z0-9\-._~+/=]{16,}/g;

const AUTH_SCHEME_VALUE = /^\s*(?:Bearer|Basic|DPoP|Token)\s+(\S+)\s*$/i;

/** True when a field or header name suggests its value is a secret. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
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
    let out = text
      .replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`)
      .replace(DPOP_CREDENTIAL, (_m, scheme: string) => `${scheme} ${REDACTED}`);
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
