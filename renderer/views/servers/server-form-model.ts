import { MASKED_VALUE } from '../../../shared/domain/server-state.js';
import {
  remoteServerConfigSchema,
  serverNameSchema,
  stdioServerConfigSchema,
  type ServerConfig,
} from '../../../shared/domain/server-config.js';
import type { HostError } from '../../../shared/ipc/host-error.js';

/**
 * The add/edit server form as plain strings, and its conversion to a ServerConfig.
 * List-like fields are one item per line so an argument containing spaces is one
 * argument; masked secrets (MASKED_VALUE) pass through untouched, which the host reads
 * as "keep the stored value".
 */

export type TransportChoice = 'stdio' | 'http' | 'sse';

export interface ServerFormValues {
  name: string;
  transport: TransportChoice;
  command: string;
  args: string;
  env: string;
  cwd: string;
  url: string;
  headers: string;
  timeout: string;
  includeTools: string;
  excludeTools: string;
  /** stdio only: run in the OS sandbox, limited to the shared folders. */
  sandbox: boolean;
  /** Remote only: a client pre-registered with the server's authorization server. */
  oauthClientId: string;
  /** Its secret, written as `${secret:NAME}` (the value itself goes into the keychain, write-only). */
  oauthClientSecret: string;
  oauthScope: string;
}

/** The text fields (the sandbox checkbox carries no error of its own). */
export type FormField = Exclude<keyof ServerFormValues, 'sandbox'>;
export type FormErrors = Partial<Record<FormField, string>>;

export type BuildResult =
  { ok: true; name: string; config: ServerConfig } | { ok: false; errors: FormErrors };

/** A blank form for a new stdio server. */
export function emptyForm(): ServerFormValues {
  return {
    name: '',
    transport: 'stdio',
    command: '',
    args: '',
    env: '',
    cwd: '',
    url: '',
    headers: '',
    timeout: '',
    includeTools: '',
    excludeTools: '',
    sandbox: false,
    oauthClientId: '',
    oauthClientSecret: '',
    oauthScope: '',
  };
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function pairs(v: unknown, sep: string): string {
  if (!isObj(v)) return '';
  return Object.entries(v)
    .map(([k, val]) => `${k}${sep}${typeof val === 'string' ? val : JSON.stringify(val)}`)
    .join('\n');
}

/**
 * The form for an existing entry. Read defensively: an invalid entry (config null, raw
 * JSON in invalidEntry) is prefilled as far as it goes so it can be fixed in place.
 */
export function formFromEntry(name: string, entry: unknown, transport: string): ServerFormValues {
  const e = isObj(entry) ? entry : {};
  const type = typeof e.type === 'string' ? e.type : '';
  const isRemote = typeof e.url === 'string' || transport === 'http' || transport === 'sse';
  const choice: TransportChoice = !isRemote
    ? 'stdio'
    : type === 'sse' || transport === 'sse'
      ? 'sse'
      : 'http';
  return {
    name,
    transport: choice,
    command: typeof e.command === 'string' ? e.command : '',
    args: strings(e.args).join('\n'),
    env: pairs(e.env, '='),
    cwd: typeof e.cwd === 'string' ? e.cwd : '',
    url: typeof e.url === 'string' ? e.url : '',
    headers: pairs(e.headers, ': '),
    timeout: typeof e.timeout === 'number' ? String(e.timeout) : '',
    includeTools: strings(e.includeTools).join('\n'),
    excludeTools: strings(e.excludeTools).join('\n'),
    sandbox: e.sandbox === true,
    oauthClientId: oauthField(e, 'clientId'),
    oauthClientSecret: oauthField(e, 'clientSecret'),
    oauthScope: oauthField(e, 'scope'),
  };
}

function oauthField(e: Obj, key: 'clientId' | 'clientSecret' | 'scope'): string {
  const o = e.oauth;
  return isObj(o) && typeof o[key] === 'string' ? o[key] : '';
}

/** The entry's `oauth` block from the form, keeping fields the form does not show (clientMetadataUrl). */
function oauthBlock(values: ServerFormValues, base: unknown): Obj | undefined {
  const kept = isObj(base) && isObj(base.oauth) ? { ...base.oauth } : {};
  delete kept.clientId;
  delete kept.clientSecret;
  delete kept.scope;
  const id = values.oauthClientId.trim();
  const secret = values.oauthClientSecret.trim();
  const scope = values.oauthScope.trim();
  const block: Obj = {
    ...kept,
    ...(id ? { clientId: id } : {}),
    ...(secret ? { clientSecret: secret } : {}),
    ...(scope ? { scope } : {}),
  };
  return Object.keys(block).length ? block : undefined;
}

function lines(text: string): string[] {
  return text.split('\n').map((l) => l.replace(/\r$/, ''));
}

/** `KEY<sep>VALUE` lines into a map; blank lines and `#` comments are skipped. */
function parsePairs(
  text: string,
  sep: string,
  what: string,
): { ok: true; map: Record<string, string> } | { ok: false; error: string } {
  const map: Record<string, string> = {};
  for (const [i, raw] of lines(text).entries()) {
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) continue;
    const at = raw.indexOf(sep);
    const key = at > 0 ? raw.slice(0, at).trim() : '';
    if (!key) return { ok: false, error: `line ${i + 1}: expected ${what}` };
    // Env values are taken verbatim (spaces can matter); HTTP trims header values anyway.
    const value = raw.slice(at + sep.length);
    map[key] = sep === '=' ? value : value.trim();
  }
  return { ok: true, map };
}

function nameList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Build the config to send. Fields this form does not show (disabled, trust, ...) are
 * carried over from `base`, so editing never silently drops them.
 */
export function buildConfig(values: ServerFormValues, base: unknown): BuildResult {
  const errors: FormErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = 'a name is required';

  const kept: Obj = {};
  if (isObj(base)) {
    for (const key of ['disabled', 'trust'] as const) if (key in base) kept[key] = base[key];
  }

  const common: Obj = { ...kept };
  if (values.timeout.trim()) {
    const ms = Number(values.timeout.trim());
    if (!Number.isInteger(ms) || ms < 100) errors.timeout = 'timeout is whole milliseconds, at least 100';
    else common.timeout = ms;
  }
  const include = nameList(values.includeTools);
  const exclude = nameList(values.excludeTools);
  if (include.length) common.includeTools = include;
  if (exclude.length) common.excludeTools = exclude;

  let config: Obj;
  if (values.transport === 'stdio') {
    if (!values.command.trim()) errors.command = 'a command is required';
    const args = lines(values.args).filter((l) => l !== '');
    const env = parsePairs(values.env, '=', 'KEY=VALUE');
    if (!env.ok) errors.env = env.error;
    config = { type: 'stdio', command: values.command.trim(), ...common };
    if (args.length) config.args = args;
    if (env.ok && Object.keys(env.map).length) config.env = env.map;
    if (values.cwd.trim()) config.cwd = values.cwd.trim();
    if (values.sandbox) config.sandbox = true;
  } else {
    const url = values.url.trim();
    if (!url) errors.url = 'a URL is required';
    else if (!/^https?:\/\//i.test(url)) errors.url = 'the URL must start with http:// or https://';
    const headers = parsePairs(values.headers, ':', 'Name: value');
    if (!headers.ok) errors.headers = headers.error;
    const baseType = isObj(base) ? base.type : undefined;
    const type =
      values.transport === 'http' && baseType === 'streamable-http' ? 'streamable-http' : values.transport;
    config = { type, url, ...common };
    if (headers.ok && Object.keys(headers.map).length) config.headers = headers.map;
    // A masked client secret sent back unchanged keeps its stored value (the host unmasks it).
    const oauth = oauthBlock(values, base);
    if (oauth) config.oauth = oauth;
    const secret = values.oauthClientSecret.trim();
    if (secret && !values.oauthClientId.trim()) errors.oauthClientId = 'a client secret needs its client ID';
    // The config file is plain text: the value itself belongs in the keychain, behind a reference.
    if (secret && secret !== MASKED_VALUE && !/^\$\{secret:[A-Za-z_][A-Za-z0-9_.-]*\}$/.test(secret)) {
      errors.oauthClientSecret =
        'write ${secret:NAME} here and enter the value in the write-only field below';
    }
  }

  if (Object.keys(errors).length) return { ok: false, errors };
  // The contract's own schemas, run here too so a mistake is named on its field before
  // the round trip (the host still validates: this check is for the person, not for trust).
  const schema = values.transport === 'stdio' ? stdioServerConfigSchema : remoteServerConfigSchema;
  const checked = schema.safeParse(config);
  const nameChecked = serverNameSchema.safeParse(name);
  if (!nameChecked.success) errors.name = nameChecked.error.issues[0]?.message ?? 'invalid name';
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const field = formFieldAt(String(issue.path[0] ?? ''));
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  if (!checked.success)
    return { ok: false, errors: { name: checked.error.issues[0]?.message ?? 'invalid entry' } };
  return { ok: true, name, config: checked.data };
}

const PATH_TO_FIELD: Record<string, FormField> = {
  name: 'name',
  command: 'command',
  args: 'args',
  env: 'env',
  cwd: 'cwd',
  url: 'url',
  headers: 'headers',
  timeout: 'timeout',
  includeTools: 'includeTools',
  excludeTools: 'excludeTools',
  oauth: 'oauthClientId',
};

/** The form field a config key belongs to (own keys only: "constructor" names no field). */
function formFieldAt(key: string): FormField | undefined {
  return Object.prototype.hasOwnProperty.call(PATH_TO_FIELD, key) ? PATH_TO_FIELD[key] : undefined;
}

/**
 * Put a host error's field errors (`details.fields`, keyed by request path such as
 * "config.command") on the form fields they name; what names no field stays in `rest` for
 * the form's error box, and an error without field errors is all `rest`.
 */
export function fieldErrorsFromHost(error: HostError): { fields: FormErrors; rest: string[] } {
  const fields: FormErrors = {};
  const rest: string[] = [];
  const entries = Object.entries(error.details?.fields ?? {});
  if (!entries.length) return { fields, rest: [error.message] };
  for (const [path, message] of entries) {
    const segments = path.split('.').filter((s) => s !== 'config' && !/^\d+$/.test(s));
    const field = segments.length ? formFieldAt(segments[0]) : undefined;
    if (field && !fields[field]) fields[field] = message;
    else rest.push(path === '(root)' ? message : `${path}: ${message}`);
  }
  return { fields, rest };
}
