import {
  literalSecretValue,
  suggestSecretName,
  type SecretField,
} from '../../../shared/domain/literal-secrets.js';

/**
 * Spotting a literal secret typed into the server form's Environment or Headers, so the form can
 * offer to move it into the keychain. The rule itself is shared with the host's imports
 * (shared/domain/literal-secrets.ts); this file reads the form's `KEY=value` / `Name: value` text.
 */

export { suggestSecretName, type SecretField };

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
    const value = literalSecretValue(key, raw.slice(at + 1), field);
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
