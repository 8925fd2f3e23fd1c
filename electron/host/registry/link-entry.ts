import type { InstallInput, InstallOption } from '../../../shared/domain/registry.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import { literalSecretValue } from '../../../shared/domain/literal-secrets.js';
import { secretRefsOf } from '../../../shared/domain/server-secrets.js';
import { secretName, type FillContext } from './install-values.js';
import type { OptionPlan } from './install-options.js';

/**
 * The install option of a `name=…&config=…` link: the link's own entry. A link is shared text,
 * so a literal key or token in its `env` or `headers` is treated like an import treats one: it
 * is moved to the keychain and the saved entry refers to it as `${secret:NAME}` (the person sees
 * which, and may type another value instead). A `${secret:NAME}` the link names becomes a new
 * secret of this server to fill in: a link must never be able to point an entry at a secret
 * another server already keeps in the keychain (it could send it anywhere).
 */

/** A literal secret found in the link's entry. */
interface Literal {
  field: 'env' | 'headers';
  key: string;
  /** The secret itself (for `Bearer x`, only x). */
  value: string;
  /** What stays around it (`Bearer `). */
  prefix: string;
}

/** The literal secrets of an entry's env and headers, by the rule the server form and imports use. */
function findLiterals(config: ServerConfig): Literal[] {
  const found: Literal[] = [];
  const scan = (field: Literal['field'], map: Record<string, string> | undefined) => {
    for (const [key, raw] of Object.entries(map ?? {})) {
      const value = literalSecretValue(key, raw, field);
      if (value === undefined) continue;
      // `Bearer x`: the scheme stays in the entry, in front of the reference.
      const trimmed = raw.trim();
      const prefix = trimmed.endsWith(value) ? trimmed.slice(0, trimmed.length - value.length) : '';
      found.push({ field, key, value, prefix });
    }
  };
  scan('env', 'env' in config ? config.env : undefined);
  scan('headers', 'headers' in config ? config.headers : undefined);
  return found;
}

/** The option, with a warning line per literal secret moved out of the link. */
export function planLinkEntry(config: ServerConfig): { plan: OptionPlan; warnings: string[] } {
  const literals = findLiterals(config);
  const refs = secretRefsOf(config);
  const inputs: InstallInput[] = [
    ...literals.map((l): InstallInput => ({
      id: `literal.${l.field}.${l.key}`,
      label: l.key,
      target: l.field === 'env' ? 'env' : 'header',
      description: 'The link carries a value for this; it goes to the keychain. Leave empty to keep it.',
      required: false,
      secret: true,
      format: 'string',
      preset: true,
    })),
    ...refs.map((name): InstallInput => ({
      id: `secret.${name}`,
      label: name,
      target: 'env',
      description: `The link asks for a secret called ${name}; it is stored for this server only.`,
      required: true,
      secret: true,
      format: 'string',
    })),
  ];
  const transport = 'command' in config ? 'stdio' : (config.type ?? 'http');
  const label = 'command' in config ? `Run ${config.command}` : `Remote ${config.url}`;
  const view: InstallOption = { id: 'entry', kind: 'entry', label, transport, available: true, inputs };
  const warnings = literals.map(
    (l) =>
      `The link puts a literal secret in ${l.field}.${l.key}: it will be stored in the keychain, not in the config file.`,
  );
  return { plan: { view, build: (ctx) => buildEntry(config, literals, refs, ctx) }, warnings };
}

function buildEntry(
  config: ServerConfig,
  literals: Literal[],
  refs: string[],
  ctx: FillContext,
): Record<string, unknown> {
  const entry = structuredClone(config) as Record<string, unknown>;
  for (const l of literals) {
    const typed = ctx.values[`literal.${l.field}.${l.key}`] ?? '';
    const name = secretName(ctx, l.key);
    ctx.secrets.push({ name, value: typed.trim() ? typed : l.value });
    const map = entry[l.field] as Record<string, string>;
    map[l.key] = `${l.prefix}\${secret:${name}}`;
  }
  const renamed = new Map<string, string>();
  for (const ref of refs) {
    const typed = ctx.values[`secret.${ref}`] ?? '';
    if (!typed.trim()) {
      ctx.missing.push(ref);
      continue;
    }
    const name = secretName(ctx, ref);
    renamed.set(ref, name);
    ctx.secrets.push({ name, value: typed });
  }
  return renamed.size ? (renameRefs(entry, renamed) as Record<string, unknown>) : entry;
}

/** Every `${secret:OLD}` in the entry's strings as `${secret:NEW}`. */
function renameRefs(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string')
    return value.replace(/\$\{secret:([A-Za-z_][A-Za-z0-9_.-]*)\}/g, (whole, n: string) =>
      names.has(n) ? `\${secret:${names.get(n)}}` : whole,
    );
  if (Array.isArray(value)) return value.map((v) => renameRefs(v, names));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameRefs(v, names)]));
  return value;
}

/** Why a link's entry is refused outright, or undefined. */
export function linkEntryProblem(config: ServerConfig): string | undefined {
  // A remote entry sends its URL and headers off this machine: a link must not fill them from
  // this machine's environment (a stdio server's process sees its environment anyway).
  if (!('command' in config) && JSON.stringify(config).includes('${env:'))
    return 'a remote entry in a link may not use ${env:…} values';
  return undefined;
}
