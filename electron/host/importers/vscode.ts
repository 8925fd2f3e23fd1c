import type { EntryReader } from './entry-reader.js';
import {
  ImportFileError,
  appData,
  isObj,
  joinFor,
  parseJsoncFile,
  projectFiles,
  userFile,
  xdgConfig,
  type CandidateFile,
  type HostImporter,
  type ImportContext,
  type ParsedServer,
} from './importer.js';
import { readJsonServers, type JsonServerStyle } from './json-servers.js';
import { editorVars, inputsUsed } from './variables.js';

/**
 * VS Code (docs: code.visualstudio.com/docs/copilot/reference/mcp-configuration): the user
 * profile's `mcp.json` and a workspace's `.vscode/mcp.json`, JSON with comments:
 * `{"servers": {…}, "inputs": [{type, id, description, password}]}`, `type` stdio/http/sse,
 * `envFile`, `sandboxEnabled`, `${input:ID}` prompted once and kept by VS Code. Older versions
 * kept the same shape under `"mcp"` in settings.json, which is read too. Stable Code and Insiders;
 * named profiles (`User/profiles/<id>/mcp.json`) are not looked for.
 */

type Obj = Record<string, unknown>;

/** One VS Code input definition, as far as we use it. */
interface InputDef {
  type: string;
  description?: string;
}

function inputDefs(doc: Obj): Map<string, InputDef> {
  const defs = new Map<string, InputDef>();
  const list = doc.inputs;
  if (list === undefined) return defs;
  if (!Array.isArray(list)) throw new ImportFileError('"inputs" is not a list');
  for (const item of list) {
    if (!isObj(item) || typeof item.id !== 'string') continue;
    const def: InputDef = { type: typeof item.type === 'string' ? item.type : 'unknown' };
    if (typeof item.description === 'string') def.description = item.description;
    defs.set(item.id, def);
  }
  return defs;
}

function readExtra(r: EntryReader, entry: Obj): void {
  if (r.bool('sandboxEnabled') === true) entry.sandbox = true;
  r.drop('dev', 'development mode (watching files, attaching a debugger) is a VS Code feature.');
  const oauth = r.take('oauth');
  if (oauth === undefined) return;
  if (isObj(oauth) && typeof oauth.clientId === 'string') entry.oauth = { clientId: oauth.clientId };
  if (isObj(oauth) && oauth.enterpriseManaged === true)
    r.note('oauth.enterpriseManaged is not carried over: MCP Desk signs in to the server itself.');
}

function styleFor(defs: Map<string, InputDef>): JsonServerStyle {
  return {
    urlKeys: ['url'],
    extra: readExtra,
    vars(file: CandidateFile, r: EntryReader) {
      const used = new Map<string, { secretName: string; from: string }>();
      return {
        translate: editorVars(file, r, { used }),
        inputs() {
          for (const id of used.keys()) {
            const def = defs.get(id);
            if (def === undefined)
              r.note(`\${input:${id}} has no definition in "inputs": enter its value after import.`);
            else if (def.type !== 'promptString')
              r.note(
                `\${input:${id}} is a ${def.type} input, which MCP Desk cannot offer: enter the value after import.`,
              );
          }
          return inputsUsed(used, (id) => defs.get(id)?.description);
        },
      };
    },
  };
}

function userDir(ctx: ImportContext, product: string): string {
  const join = joinFor(ctx);
  if (ctx.platform === 'darwin') return join(ctx.home, 'Library', 'Application Support', product, 'User');
  if (ctx.platform === 'win32') return join(appData(ctx), product, 'User');
  return join(xdgConfig(ctx), product, 'User');
}

/** VS Code: the user and workspace mcp.json, and the older settings.json block. */
export const vscode: HostImporter = {
  id: 'vscode',
  label: 'VS Code',
  files(ctx) {
    const user = ['Code', 'Code - Insiders'].flatMap((product) => [
      userFile(ctx, userDir(ctx, product), 'mcp.json'),
      userFile(ctx, userDir(ctx, product), 'settings.json'),
    ]);
    return [...user, ...projectFiles(ctx, '.vscode', 'mcp.json')];
  },
  parse(text, file): ParsedServer[] {
    const doc = parseJsoncFile(text);
    if (!isObj(doc)) throw new ImportFileError('the file is not a JSON object');
    const inSettings = /settings\.json$/i.test(file.path);
    const holder = inSettings ? doc.mcp : doc;
    if (inSettings && holder === undefined) return [];
    if (!isObj(holder)) throw new ImportFileError('"mcp" is not an object');
    const servers = holder.servers;
    if (servers === undefined && inSettings) return [];
    if (!isObj(servers)) throw new ImportFileError('"servers" is missing or is not an object of servers');
    return readJsonServers(servers, file, styleFor(inputDefs(holder)));
  },
};
