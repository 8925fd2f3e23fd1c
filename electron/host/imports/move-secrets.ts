import {
  literalSecretValue,
  looksLikeSecretValue,
  soundsSecret,
  suggestSecretName,
} from '../../../shared/domain/literal-secrets.js';
import { isStdioConfig, type ServerConfig } from '../../../shared/domain/server-config.js';

/**
 * Taking the literal secrets out of an entry before it is saved: each value found (by the same
 * rule as the server form, shared/domain/literal-secrets.ts) is replaced by a `${secret:NAME}`
 * reference, and handed back beside the entry so the caller can store it in the keychain.
 * Nothing here stores, logs or returns a value anywhere else.
 */

/** One literal secret taken out of an entry: its keychain name, where it was, and the value. */
export interface MovedSecret {
  name: string;
  /** Where it was, e.g. `env.GITHUB_TOKEN`, `headers.Authorization`, `args[3]`. */
  from: string;
  value: string;
}

/** An entry with its literal secrets replaced by references, and what was taken out. */
export interface SecretsMoved {
  config: ServerConfig;
  moved: MovedSecret[];
}

const ref = (name: string) => `\${secret:${name}}`;
const IS_REF = /^\$\{(?:secret|env):[^}]+\}$/;

/**
 * Replace every literal secret of `config` (env, headers, args, an OAuth client secret) by a
 * reference named `<server>.<KEY>`; `taken` holds the names already in use and gains the new ones.
 */
export function moveLiteralSecrets(server: string, config: ServerConfig, taken: Set<string>): SecretsMoved {
  const moved: MovedSecret[] = [];
  const take = (key: string, from: string, value: string): string => {
    const name = suggestSecretName(server, key, taken);
    taken.add(name);
    moved.push({ name, from, value });
    return ref(name);
  };
  const mapOf = (map: Record<string, string> | undefined, field: 'env' | 'headers') => {
    if (!map) return undefined;
    const out: Record<string, string> = {};
    for (const [key, raw] of Object.entries(map)) {
      const value = literalSecretValue(key, raw, field);
      // Only the literal is replaced: `Bearer x` keeps its scheme around the reference.
      out[key] = value ? raw.replace(value, take(key, `${field}.${key}`, value)) : raw;
    }
    return out;
  };
  if (isStdioConfig(config)) {
    const env = mapOf(config.env, 'env');
    const args = config.args ? moveFromArgs(config.args, take) : undefined;
    return { config: { ...config, ...(env ? { env } : {}), ...(args ? { args } : {}) }, moved };
  }
  const headers = mapOf(config.headers, 'headers');
  let oauth = config.oauth;
  const secret = oauth?.clientSecret;
  if (oauth && secret !== undefined && !IS_REF.test(secret))
    oauth = { ...oauth, clientSecret: take('clientSecret', 'oauth.clientSecret', secret) };
  return { config: { ...config, ...(headers ? { headers } : {}), ...(oauth ? { oauth } : {}) }, moved };
}

/**
 * The cheap cases on a command line: `--api-key=VALUE`, `--token VALUE`, and a bare argument
 * shaped like a well-known key (sk-…, ghp_…). Anything subtler stays as it is.
 */
function moveFromArgs(
  args: readonly string[],
  take: (key: string, from: string, value: string) => string,
): string[] {
  return args.map((arg, i) => {
    const flag = /^--?([A-Za-z][\w-]*)=(.+)$/.exec(arg);
    if (flag) {
      const [, key = '', raw = ''] = flag;
      const value = literalSecretValue(key, raw, 'env');
      return value ? arg.replace(value, take(key, `args[${i}]`, value)) : arg;
    }
    const prev = /^--?([A-Za-z][\w-]*)$/.exec(args[i - 1] ?? '')?.[1];
    if (prev && soundsSecret(prev) && !arg.startsWith('-')) {
      const value = literalSecretValue(prev, arg, 'env');
      if (value) return take(prev, `args[${i}]`, value);
    }
    return looksLikeSecretValue(arg) ? take(`arg${i}`, `args[${i}]`, arg) : arg;
  });
}
