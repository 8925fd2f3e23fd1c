import { parse, type ParseEntry } from 'shell-quote';

/**
 * Reading a whole command line typed or pasted into the server form's Command field. MCP Desk
 * starts a server's program directly, without a shell, so `npx -y pkg "/tmp/my dir"` in Command
 * would look for a program of that whole name ("command not found"). We split it the way a
 * shell would (quotes, escapes), move leading `FOO=bar` assignments to the environment, turn
 * `$VAR` into the host's `${env:VAR}`, and refuse what only a shell can do (pipes, `&&`, `>`).
 */

/** What the Command field holds, and what the form should offer. */
export type CommandAnalysis =
  /** One program name or path: nothing to do. */
  | { kind: 'single' }
  /** A command line: split it (at once, undoably). */
  | { kind: 'split'; command: string; args: string[]; env: [string, string][] }
  /** A path with spaces, or a command line: the person chooses. `split` is what splitting gives. */
  | { kind: 'ambiguous'; split: { command: string; args: string[]; env: [string, string][] } }
  /** Shell syntax a program cannot take as arguments; `ops` lists what was found. */
  | { kind: 'shell'; ops: string[] }
  /** Quotes that never close: leave it alone and say so. */
  | { kind: 'unbalanced' };

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;
// A path people type: /abs, ~/home, ./rel, ../rel, C:\ or C:/ on Windows.
const PATH_START = /^(?:\/|~\/|\.\.?\/|[A-Za-z]:[\\/])/;
const WINDOWS_PATH = /^"?[A-Za-z]:\\/;
// The host's own references (`${secret:NAME}`, `${env:X}`) must pass through untouched.
const HOST_REF = /\$\{(?:secret|env):[^}]*\}/g;
// Plain word characters, so the shell parser leaves the stand-in alone (quotes and all).
const MARK = '__mcpdeskref__';
const MARKED = /__mcpdeskref__(\d+)__mcpdeskref__/g;

function quotesBalanced(text: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quote !== "'") i++;
    else if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
  }
  return quote === null;
}

/** Split text into words as a POSIX shell would, or the shell operators that stop us. */
function words(text: string): { words: string[] } | { ops: string[] } {
  const refs: string[] = [];
  const marked = text.replace(HOST_REF, (m) => `${MARK}${refs.push(m) - 1}${MARK}`);
  // Backslashes in a Windows path are separators, not escapes.
  const source = WINDOWS_PATH.test(marked) ? marked.replace(/\\/g, '\\\\') : marked;
  const entries: ParseEntry[] = parse(source, (name: string) => `\${env:${name}}`);
  const out: string[] = [];
  const ops: string[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') out.push(entry);
    else if ('comment' in entry) break;
    else if (entry.op === 'glob') out.push(entry.pattern);
    else ops.push(entry.op);
  }
  if (ops.length) return { ops: [...new Set(ops)] };
  const restore = (w: string) => w.replace(MARKED, (_, i: string) => refs[Number(i)] ?? '');
  return { words: out.map(restore) };
}

/** What to do with the Command field's text. */
export function analyseCommand(text: string): CommandAnalysis {
  const trimmed = text.trim();
  if (!/\s|["']/.test(trimmed)) return { kind: 'single' };
  if (!quotesBalanced(trimmed)) return { kind: 'unbalanced' };
  const parsed = words(trimmed);
  if ('ops' in parsed) return { kind: 'shell', ops: parsed.ops };
  const env: [string, string][] = [];
  const rest = [...parsed.words];
  while (rest.length > 1 && ASSIGNMENT.test(rest[0] ?? '')) {
    const m = ASSIGNMENT.exec(rest.shift() ?? '');
    if (m) env.push([m[1] ?? '', m[2] ?? '']);
  }
  const [command = '', ...args] = rest;
  if (!command) return { kind: 'single' };
  // A quoted path ("/opt/My App/server") is one word: take it without its quotes.
  if (args.length === 0 && env.length === 0)
    return command === trimmed ? { kind: 'single' } : { kind: 'split', command, args, env };
  const split = { command, args, env };
  // "/opt/My App/bin/server" may be one path with spaces: only the person knows. A flag right
  // after the path ("/usr/bin/node --inspect x.js") settles it.
  const unquotedPath = env.length === 0 && PATH_START.test(trimmed);
  if (unquotedPath && !(args[0] ?? '').startsWith('-')) return { kind: 'ambiguous', split };
  return { kind: 'split', command, args, env };
}

/** A one-line summary of a split, as the form announces it. */
export function describeSplit(split: { command: string; args: string[]; env: [string, string][] }): string {
  const parts = [`command ${split.command}`];
  if (split.args.length) parts.push(`${split.args.length} argument${split.args.length === 1 ? '' : 's'}`);
  if (split.env.length) parts.push(`${split.env.map(([k]) => k).join(', ')} moved to Environment`);
  return parts.join(', ');
}
