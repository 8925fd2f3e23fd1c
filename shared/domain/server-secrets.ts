/**
 * Static credentials of server configs: `${secret:NAME}` references whose values live in the
 * OS keychain and are entered through write-only fields. Shared so the form can show a row for
 * each reference while the person types, with the same rule the host expands by.
 */

/** A name as `${secret:NAME}` accepts it; 90 at most so the keychain account (prefix + name) stays within 100. */
export const SERVER_SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,89}$/;

/** Longest value accepted from the UI (every real key or token fits; a pasted file does not). */
export const MAX_SERVER_SECRET_LENGTH = 10_000;

/** What the renderer may know about one secret: whether it is set and who uses it, never its value. */
export interface ServerSecretStatus {
  name: string;
  set: boolean;
  /** Ids of the servers whose config references `${secret:NAME}`. */
  usedBy: string[];
  /** Why no value can be stored here (no OS keychain: what to install or unlock); absent when one can. */
  keychainError?: string;
}

/**
 * Secrets an add, install or import could not store because there is no OS keychain here: the
 * entry was saved anyway, with these `${secret:NAME}` references left unset (never the values).
 */
export interface SecretsNotStored {
  /** The `${secret:NAME}` names left unset. */
  names: string[];
  /** Why: the keychain's own message, with what to install or unlock. */
  reason: string;
}

const REF = /\$\{secret:([A-Za-z_][A-Za-z0-9_.-]*)\}/g;

/** The secret names referenced in one piece of text, in order of first appearance. */
export function secretRefsIn(text: string): string[] {
  return [...new Set([...text.matchAll(REF)].map((m) => m[1] ?? ''))].filter(Boolean);
}

/** Every secret name a config references, in any string field (env, headers, args, url, oauth…). */
export function secretRefsOf(config: unknown): string[] {
  const found = new Set<string>();
  const walk = (v: unknown, depth: number): void => {
    if (depth > 16) return;
    if (typeof v === 'string') for (const n of secretRefsIn(v)) found.add(n);
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(config, 0);
  return [...found];
}
