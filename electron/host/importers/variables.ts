import type { EntryReader } from './entry-reader.js';
import { pathApiOf, secretNameFor, type CandidateFile, type ParsedInput } from './importer.js';

/**
 * Other hosts' placeholders turned into ours. We expand only `${env:NAME}` and `${secret:NAME}`
 * (electron/host/config/expand.ts), so each host's own syntax becomes one of those, a value we
 * know at import time (the home or project folder), or stays as written with a sentence saying
 * MCP Desk will not expand it.
 */

type Obj = Record<string, unknown>;

/** Rewrites one string; `where` names its place (`env.API_KEY`, `args[2]`, `url`). */
export type Translate = (text: string, where: string) => string;

/** Apply `t` to every string of an entry that is expanded at launch: command, args, env, cwd, url, headers. */
export function translateEntry(entry: Obj, t: Translate): void {
  for (const key of ['command', 'cwd', 'url', 'httpUrl'] as const) {
    const v = entry[key];
    if (typeof v === 'string') entry[key] = t(v, key);
  }
  if (Array.isArray(entry.args))
    entry.args = (entry.args as unknown[]).map((a, i) => (typeof a === 'string' ? t(a, `args[${i}]`) : a));
  for (const key of ['env', 'headers'] as const) {
    const map = entry[key];
    if (map === null || typeof map !== 'object') continue;
    entry[key] = Object.fromEntries(
      Object.entries(map as Record<string, unknown>).map(([k, v]) => [
        k,
        typeof v === 'string' ? t(v, `${key}.${k}`) : v,
      ]),
    );
  }
}

const NAME = '[A-Za-z_][A-Za-z0-9_]*';

/**
 * Claude Code's `${VAR}` and `${VAR:-default}`. The default cannot be carried (ours refuses an
 * unset variable), and its value is not repeated in the sentence: it may be a token.
 */
export function claudeCodeVars(r: EntryReader): Translate {
  const re = new RegExp(`\\$\\{(${NAME})(:-[^}]*)?\\}`, 'g');
  return (text, where) =>
    text.replace(re, (_m, name: string, fallback: string | undefined) => {
      if (fallback !== undefined)
        r.note(
          `${where} uses \${${name}:-…}: the default value is not carried over, so ${name} must be set in MCP Desk's environment.`,
        );
      return `\${env:${name}}`;
    });
}

/** gemini-cli's `$VAR` and `${VAR}`, expanded from its environment. */
export function shellVars(): Translate {
  const re = new RegExp(`\\$\\{(${NAME})\\}|\\$(${NAME})`, 'g');
  return (text) =>
    text.replace(
      re,
      (_m, braced: string | undefined, bare: string | undefined) => `\${env:${braced ?? bare}}`,
    );
}

/** The reverse of shellVars for export: `${env:NAME}` as `${NAME}`. */
export function envRefsAsShell(text: string): string {
  return text.replace(new RegExp(`\\$\\{env:(${NAME})\\}`, 'g'), '${$1}');
}

/**
 * VS Code's and Cursor's predefined variables: `${env:X}` is ours already; `${userHome}`,
 * `${workspaceFolder}`, `${workspaceFolderBasename}` and `${pathSeparator}`/`${/}` are known when
 * the file is read; with `inputs`, `${input:ID}` becomes `${secret:ID}` and is recorded.
 */
export function editorVars(
  file: CandidateFile,
  r: EntryReader,
  inputs?: { used: Map<string, { secretName: string; from: string }> },
): Translate {
  const sep = pathApiOf(file.path).sep;
  return (text, where) =>
    text.replace(/\$\{([^}]*)\}/g, (whole, body: string) => {
      if (body.startsWith('env:') || body.startsWith('secret:')) return whole;
      if (inputs && body.startsWith('input:')) {
        const id = body.slice('input:'.length);
        const secretName = secretNameFor(id);
        if (!inputs.used.has(id)) inputs.used.set(id, { secretName, from: where });
        return `\${secret:${secretName}}`;
      }
      if (body === 'userHome' && file.home) return file.home;
      if (body === 'pathSeparator' || body === '/') return sep;
      if (file.workspaceFolder) {
        if (body === 'workspaceFolder') return file.workspaceFolder;
        if (body === 'workspaceFolderBasename') return pathApiOf(file.path).basename(file.workspaceFolder);
      }
      r.note(
        `${where} uses ${whole}, which MCP Desk does not expand here: replace it with the value after import.`,
      );
      return whole;
    });
}

/** The ParsedInputs of the `${input:ID}`s an entry used, with their VS Code descriptions. */
export function inputsUsed(
  used: Map<string, { secretName: string; from: string }>,
  describe: (id: string) => string | undefined,
): ParsedInput[] {
  return [...used.entries()].map(([id, u]) => {
    const description = describe(id);
    return description === undefined ? { ...u } : { ...u, description };
  });
}
