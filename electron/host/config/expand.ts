import { isNoKeychain, noKeychainReason } from '../util/no-keychain.js';
import { HostFailure } from '../util/errors.js';
import type { Redactor } from '../util/redact.js';

/** Resolves `${secret:NAME}` references (serverSecretResolver: the keychain, under the server-secret prefix). */
export interface SecretResolver {
  get(name: string): Promise<string | undefined>;
}

const REF = /\$\{(env|secret):([A-Za-z_][A-Za-z0-9_.-]*)\}/g;

/**
 * Expand `${env:NAME}` from the host's environment and `${secret:NAME}` from the secret
 * store. A missing variable is an error naming the server and field, not an empty string,
 * so a server never starts with a silently blank credential.
 */
export async function expandRefs(
  text: string,
  where: { server: string; field: string },
  env: NodeJS.ProcessEnv,
  secrets: SecretResolver | undefined,
  redactor: Redactor,
): Promise<string> {
  const matches = [...text.matchAll(REF)];
  if (matches.length === 0) return text;
  let out = '';
  let last = 0;
  for (const m of matches) {
    const [whole, kind, name] = m;
    out += text.slice(last, m.index);
    last = (m.index ?? 0) + whole.length;
    if (kind === 'env') {
      const value = env[name];
      if (value === undefined) {
        throw new HostFailure(
          'config_invalid',
          `server "${where.server}": ${where.field} uses \${env:${name}}, which is not set`,
        );
      }
      out += value;
    } else {
      const value = secrets ? await readSecret(secrets, name, where) : undefined;
      if (value === undefined) {
        throw new HostFailure(
          'secret_missing',
          `server "${where.server}": ${where.field} uses \${secret:${name}}, which has no stored value: enter it in the server's form (Servers › Edit)`,
        );
      }
      redactor.addSecret(value);
      out += value;
    }
  }
  return out + text.slice(last);
}

/** A `${secret:NAME}` value; where there is no keychain, an error naming the reference and why. */
async function readSecret(
  secrets: SecretResolver,
  name: string,
  where: { server: string; field: string },
): Promise<string | undefined> {
  try {
    return await secrets.get(name);
  } catch (error) {
    if (!isNoKeychain(error)) throw error;
    throw new HostFailure(
      'keychain_unavailable',
      `server "${where.server}": ${where.field} uses \${secret:${name}}, which is not set — no keychain here: ${noKeychainReason(error)}`,
    );
  }
}

/** Expand every value of a string map (env, headers). */
export async function expandMap(
  map: Record<string, string> | undefined,
  where: { server: string; field: string },
  env: NodeJS.ProcessEnv,
  secrets: SecretResolver | undefined,
  redactor: Redactor,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map ?? {})) {
    out[k] = await expandRefs(
      v,
      { server: where.server, field: `${where.field}.${k}` },
      env,
      secrets,
      redactor,
    );
  }
  return out;
}
