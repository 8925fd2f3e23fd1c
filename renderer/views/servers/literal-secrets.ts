import { MASKED_VALUE } from '../../../shared/domain/server-state.js';
import { SERVER_SECRET_NAME } from '../../../shared/domain/server-secrets.js';

/**
 * Spotting a literal secret typed into the server form's Environment or Headers, so the form can
 * offer to move it into the keychain: mcp-servers.json is plain text, and a key in it ends up in
 * backups, screenshots and shared configs. Found by the key's name (OPENAI_API_KEY, X-Api-Token,
 * Authorization) or by the value's shape (sk-…, ghp_…, xoxb-…, AIza…).
 */

/** Which text field a secret was typed in. */
export type SecretField = 'env' | 'headers';

/** One literal secret in the form: where it is, and the name it would get in the keychain. */
export interface LiteralSecret {
  field: SecretField;
  /** 0-based line in the field's text. */
  line: number;
  key: string;
  /** The literal to store (for `Bearer x`, only x). */
  value: string;
  suggestedName: string;
}

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

function literalValue(key: string, raw: string, field: SecretField): string | undefined {
  let value = raw.trim();
  const scheme = field === 'headers' ? SCHEME.exec(value) : null;
  if (scheme) value = (scheme[2] ?? '').trim();
  if (!value || value === MASKED_VALUE || REFERENCE.test(value) || value.includes('${')) return undefined;
  const byShape = SECRET_VALUE.some((re) => re.test(value));
  // A secret-sounding key with a short or placeholder value ("true", "xxx") is not worth a prompt.
  const byKey = SECRET_KEY.test(key) && value.length >= 8 && !/^(?:x+|\*+|<.*>|changeme)$/i.test(value);
  return byShape || byKey || (!!scheme && value.length >= 8) ? value : undefined;
}

/** A keychain name for a secret: `<server>.<KEY>`, valid for `${secret:NAME}`, unique against `taken`. */
export function suggestSecretName(server: string, key: string, taken: ReadonlySet<string>): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^[^A-Za-z_]+/, '');
  const base = [clean(server), clean(key)].filter(Boolean).join('.').slice(0, 80) || 'secret';
  let name = SERVER_SECRET_NAME.test(base) ? base : `s_${base}`.slice(0, 80);
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
  return name;
}

/** Every literal secret in the Environment (`KEY=value`) or Headers (`Name: value`) text. */
export function findLiteralSecrets(
  text: string,
  field: SecretField,
  server: string,
  taken: ReadonlySet<string> = new Set(),
): LiteralSecret[] {
  const sep = field === 'env' ? '=' : ':';
  const found: LiteralSecret[] = [];
  const names = new Set(taken);
  for (const [line, raw] of text.split('\n').entries()) {
    const at = raw.indexOf(sep);
    if (at <= 0 || raw.trimStart().startsWith('#')) continue;
    const key = raw.slice(0, at).trim();
    const value = literalValue(key, raw.slice(at + 1), field);
    if (!value) continue;
    const suggestedName = suggestSecretName(server, key, names);
    names.add(suggestedName);
    found.push({ field, line, key, value, suggestedName });
  }
  return found;
}

/**
 * The field's text with the secret's literal replaced by `${secret:NAME}`. The line is found
 * again by key and value (the person may have edited above it meanwhile); unchanged if gone.
 */
export function replaceWithReference(text: string, secret: LiteralSecret, name: string): string {
  const sep = secret.field === 'env' ? '=' : ':';
  const lines = text.split('\n');
  const at = (line: string) => line.indexOf(sep);
  const index = lines.findIndex(
    (line) =>
      at(line) > 0 &&
      line.slice(0, at(line)).trim() === secret.key &&
      line.slice(at(line) + 1).includes(secret.value),
  );
  const line = lines[index];
  if (line === undefined) return text;
  const cut = at(line) + 1;
  // Keep "Bearer " (and the spacing after the separator) around the reference.
  lines[index] = line.slice(0, cut) + line.slice(cut).replace(secret.value, `\${secret:${name}}`);
  return lines.join('\n');
}
