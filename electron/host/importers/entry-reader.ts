import { isObj, pathApiOf, type CandidateFile, type ParsedInput, type ParsedServer } from './importer.js';

/**
 * Reading one server entry of another host field by field. Every key the entry has is either
 * read into our shape, dropped with a sentence saying so, or (metadata such as a description)
 * ignored on purpose; whatever is left at the end is named as not carried over, so an unknown key
 * never silently disappears and never makes the whole entry invalid.
 */

type Obj = Record<string, unknown>;

/** Our timeout bounds (shared/domain/server-config.ts), in milliseconds. */
const MIN_TIMEOUT_MS = 100;
const MAX_TIMEOUT_MS = 3_600_000;

/** Field-by-field reader of one entry; collects the not-carried sentences. */
export class EntryReader {
  readonly notCarried: string[] = [];
  private readonly seen = new Set<string>();

  constructor(readonly raw: Obj) {}

  /** Whether the entry has `key` (a null counts as absent). */
  has(key: string): boolean {
    return this.raw[key] !== undefined && this.raw[key] !== null;
  }

  /** The raw value, marked as read. */
  take(key: string): unknown {
    this.seen.add(key);
    return this.raw[key] ?? undefined;
  }

  /** A text field; anything else is named and left out. */
  str(key: string): string | undefined {
    const v = this.take(key);
    if (v === undefined || typeof v === 'string') return v;
    this.note(`"${key}" is not text, so it is left out.`);
    return undefined;
  }

  /** A list of texts (numbers become text); anything else is named and left out. */
  list(key: string): string[] | undefined {
    const v = this.take(key);
    if (v === undefined) return undefined;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number'))
      return v.map(String);
    this.note(`"${key}" is not a list of texts, so it is left out.`);
    return undefined;
  }

  /** A map of texts (env, headers); numbers and booleans become text, other values are named. */
  map(key: string): Record<string, string> | undefined {
    const v = this.take(key);
    if (v === undefined) return undefined;
    if (!isObj(v)) {
      this.note(`"${key}" is not a map of names to values, so it is left out.`);
      return undefined;
    }
    const out: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'string') out[k] = x;
      else if (typeof x === 'number' || typeof x === 'boolean') out[k] = String(x);
      else this.note(`${key}.${k} has no text value (${x === null ? 'null' : typeof x}), so it is left out.`);
    }
    return out;
  }

  /** An object field (oauth settings); anything else is named and left out. */
  obj(key: string): Obj | undefined {
    const v = this.take(key);
    if (v === undefined || isObj(v)) return v;
    this.note(`"${key}" is not an object, so it is left out.`);
    return undefined;
  }

  /** A true/false field; anything else is named and left out. */
  bool(key: string): boolean | undefined {
    const v = this.take(key);
    if (v === undefined || typeof v === 'boolean') return v;
    this.note(`"${key}" is not true or false, so it is left out.`);
    return undefined;
  }

  /** A number field; anything else is named and left out. */
  num(key: string): number | undefined {
    const v = this.take(key);
    if (v === undefined || (typeof v === 'number' && Number.isFinite(v))) return v;
    this.note(`"${key}" is not a number, so it is left out.`);
    return undefined;
  }

  /** A timeout in our milliseconds, from `value` in `unit`; out of our range it is named and dropped. */
  timeout(key: string, value: number | undefined, unit: 'ms' | 's'): number | undefined {
    if (value === undefined) return undefined;
    const ms = Math.round(unit === 's' ? value * 1000 : value);
    if (ms >= MIN_TIMEOUT_MS && ms <= MAX_TIMEOUT_MS) return ms;
    this.note(
      `"${key}" (${value} ${unit === 's' ? 'seconds' : 'ms'}) is outside what MCP Desk accepts (0.1 s to 1 hour), so the default timeout is used.`,
    );
    return undefined;
  }

  /** Metadata with no effect on running the server (a description, a display name): read and dropped quietly. */
  ignore(...keys: string[]): void {
    for (const k of keys) this.seen.add(k);
  }

  /** When the entry has `key`, drop it and say why. */
  drop(key: string, why: string): void {
    if (this.has(key)) this.note(`"${key}" is not carried over: ${why}`);
    this.seen.add(key);
  }

  /** Add a sentence (once). */
  note(sentence: string): void {
    if (!this.notCarried.includes(sentence)) this.notCarried.push(sentence);
  }

  /** Name every key nobody read. */
  finish(): string[] {
    for (const key of Object.keys(this.raw)) {
      if (!this.seen.has(key) && this.raw[key] !== undefined)
        this.note(`"${key}" is not carried over: MCP Desk has no such setting.`);
    }
    return this.notCarried;
  }
}

/** Set `key` on `entry` only when there is a value (so absent stays absent). */
export function put(entry: Obj, key: string, value: unknown): void {
  if (value !== undefined) entry[key] = value;
}

/** A new entry with the local-server fields every host names alike: command, args, env. */
export function commandLine(r: EntryReader): Obj {
  const entry: Obj = {};
  put(entry, 'command', r.str('command'));
  put(entry, 'args', r.list('args'));
  put(entry, 'env', r.map('env'));
  return entry;
}

/**
 * Make the entry one transport: a local server keeps no url or headers, a remote one keeps no
 * command-line fields, each dropped with a sentence (our schema refuses a mixed entry).
 */
export function settleTransport(entry: Obj, r: EntryReader): void {
  if (entry.command !== undefined && entry.url !== undefined) {
    r.note('It has both a command and a URL: the command is used, the URL and headers are not carried over.');
    delete entry.url;
    delete entry.headers;
    delete entry.type;
    delete entry.oauth;
  } else if (entry.url !== undefined) {
    for (const key of ['args', 'env', 'cwd', 'sandbox']) {
      if (entry[key] === undefined) continue;
      r.note(`"${key}" applies to local servers only, so it is not carried over for this remote server.`);
      delete entry[key];
    }
  }
}

/**
 * A path field made absolute: relative to the project folder for a project file; in a user file
 * a relative path depends on where the other host was started, so it is kept and flagged.
 */
export function absolutePath(path: string, file: CandidateFile, field: string, r: EntryReader): string {
  const api = pathApiOf(file.path);
  if (api.isAbsolute(path)) return path;
  if (file.workspaceFolder) return api.join(file.workspaceFolder, path);
  r.note(`${field} "${path}" is relative to wherever the other app was started: check it after import.`);
  return path;
}

/** A server whose raw value is not an object: passed through for the caller to report as invalid. */
export function passThrough(name: string, raw: unknown): ParsedServer {
  return { name, entry: raw, notCarried: [], inputs: [] };
}

/** The finished ParsedServer of a read entry. */
export function parsed(
  name: string,
  entry: Obj,
  r: EntryReader,
  extra: { inputs?: ParsedInput[]; envFile?: string; group?: string; unsupported?: string } = {},
): ParsedServer {
  settleTransport(entry, r);
  const out: ParsedServer = { name, entry, notCarried: r.finish(), inputs: extra.inputs ?? [] };
  if (extra.group !== undefined) out.group = extra.group;
  if (extra.envFile !== undefined) out.envFile = extra.envFile;
  if (extra.unsupported !== undefined) out.unsupported = extra.unsupported;
  return out;
}
