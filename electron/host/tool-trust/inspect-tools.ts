import type { CatalogTool } from '../../../shared/domain/catalog.js';
import type { Tool } from '../../../shared/domain/mcp-types.js';
import type { ToolTextField, ToolWarning } from '../../../shared/domain/tool-trust.js';
import { groupFindings, type Finding } from './findings.js';
import { inspectText, toolReferences } from './inspect-text.js';
import { findShadowing } from './shadowing.js';

/**
 * Poisoning and shadowing warnings for every tool of the catalog at once (shadowing and
 * mentions compare servers). Pure: the same list gives the same warnings. Warnings never
 * block anything; a person reads them and decides (the per-tool switch, the approval card).
 */
export function inspectTools(tools: readonly CatalogTool[]): Map<CatalogTool, ToolWarning[]> {
  const shadowing = findShadowing(tools);
  const names = otherToolIndex(tools);
  const out = new Map<CatalogTool, ToolWarning[]>();
  for (const t of tools) {
    const own = ownFindings(t.tool);
    const cross = [...mentions(t, own, names), ...(shadowing.get(t) ?? [])];
    // Most tools raise nothing that depends on the rest of the catalog: their warnings are theirs alone.
    if (cross.length === 0) {
      own.grouped ??= groupFindings(own.findings, (field) => own.texts.get(field as ToolTextField) ?? '');
      out.set(t, own.grouped);
      continue;
    }
    out.set(
      t,
      groupFindings([...own.findings, ...cross], (field) => own.texts.get(field as ToolTextField) ?? ''),
    );
  }
  return out;
}

/** What a tool's own text raises and holds, whatever else is in the catalog. */
interface OwnFindings {
  texts: Map<ToolTextField, string>;
  findings: Finding[];
  /** Word-like tokens of each prose text (candidates for another tool's name). */
  words: { field: ToolTextField; name: string; start: number; end: number; quoted: boolean }[];
  /** "call the X tool"-style references in each prose text. */
  refs: { field: ToolTextField; name: string; start: number; end: number }[];
  /** The warnings when nothing else in the catalog adds any (computed on first need). */
  grouped?: ToolWarning[];
}

/**
 * Kept per Tool object (a server's list holds the same objects until it changes, and every
 * catalog snapshot asks again) and, past that, per tool content: a reconnect or a list_changed
 * brings new objects for the same tools, and several servers can offer the very same ones.
 */
const cache = new WeakMap<Tool, OwnFindings>();
const byContent = new Map<string, OwnFindings>();
/** Tool contents remembered; the map starts over past this, so a churning server cannot grow it. */
const MAX_CONTENTS = 20_000;

function ownFindings(tool: Tool): OwnFindings {
  const hit = cache.get(tool);
  if (hit) return hit;
  const content = JSON.stringify(tool);
  let entry = byContent.get(content);
  if (!entry) {
    entry = inspectOwn(tool);
    if (byContent.size >= MAX_CONTENTS) byContent.clear();
    byContent.set(content, entry);
  }
  cache.set(tool, entry);
  return entry;
}

function inspectOwn(tool: Tool): OwnFindings {
  const texts = toolTexts(tool);
  const findings: Finding[] = [];
  for (const [field, text] of texts) findings.push(...inspectText({ field, mode: 'definition' }, text));
  findings.push(...longDescription(tool));
  const entry: OwnFindings = { texts, findings, words: [], refs: [] };
  for (const [field, text] of texts) {
    if (field === 'name' || field.endsWith('#key')) continue;
    for (const word of words(text)) entry.words.push({ field, ...word });
    for (const ref of toolReferences(text)) entry.refs.push({ field, ...ref });
  }
  return entry;
}

/**
 * A description longer than this many characters is flagged. Measured on the reference
 * servers (server-everything, -filesystem, -memory and the five MCP Apps examples, 54 tools):
 * median ~100, 90th percentile ~360, longest 3,507 (server-pdf's `interact`, a whole manual
 * of its commands). Poisoned descriptions hide instructions in bulk below what a person
 * scrolls; 4,000 flags nothing real we measured and anything past a printed page.
 */
export const LONG_DESCRIPTION = 4000;

function longDescription(tool: Tool): Finding[] {
  const length = tool.description?.length ?? 0;
  if (length <= LONG_DESCRIPTION) return [];
  return [
    {
      kind: 'long-description',
      field: 'description',
      start: LONG_DESCRIPTION,
      end: length,
      detail: `${length.toLocaleString('en-US')} characters, where tool descriptions rarely pass a few hundred (the part past ${LONG_DESCRIPTION.toLocaleString('en-US')} is marked)`,
    },
  ];
}

/** Every text of a tool the model reads: name, title, description, and each string in its schemas (keys too). */
export function toolTexts(tool: Tool): Map<ToolTextField, string> {
  const texts = new Map<ToolTextField, string>();
  texts.set('name', tool.name);
  if (tool.title) texts.set('title', tool.title);
  const annotationTitle = tool.annotations?.title;
  if (annotationTitle && annotationTitle !== tool.title) texts.set('title', annotationTitle);
  if (tool.description) texts.set('description', tool.description);
  walk(tool.inputSchema, '', (pointer, text) => texts.set(`inputSchema${pointer}`, text));
  if (tool.outputSchema)
    walk(tool.outputSchema, '', (pointer, text) => texts.set(`outputSchema${pointer}`, text));
  return texts;
}

/** Schemas are walked to this depth: a deeper one is not a schema a person reads anyway. */
const MAX_DEPTH = 32;
const MAX_STRINGS = 5000;

function walk(node: unknown, pointer: string, visit: (pointer: string, text: string) => void): void {
  let count = 0;
  const step = (value: unknown, at: string, depth: number): void => {
    if (count > MAX_STRINGS || depth > MAX_DEPTH) return;
    if (typeof value === 'string') {
      count++;
      visit(at, value);
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((v, i) => step(v, `${at}/${i}`, depth + 1));
      return;
    }
    if (value && typeof value === 'object')
      for (const [key, v] of Object.entries(value)) {
        const child = `${at}/${escapePointer(key)}`;
        // A property name is text the model reads too ("sidenote_with_instructions").
        if (!isPlainKey(key)) {
          count++;
          visit(`${child}#key`, key);
        }
        step(v, child, depth + 1);
      }
  };
  step(node, pointer, 0);
}

/** Keys made of identifier characters only carry no hidden text and no sentence: skip them. */
function isPlainKey(key: string): boolean {
  return (
    /^[A-Za-z0-9_$@.-]{1,64}$/.test(key) && !/[Ii]gnore|[Ii]nstruction|[Ss]ecret|ssh|[Pp]rompt/.test(key)
  );
}

/** RFC 6901: "~" and "/" inside a key. */
function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

interface NameIndex {
  /** Tool name -> the servers that offer it. */
  servers: Map<string, Set<string>>;
}

/** Names like `send_email`, `readFile`, `get-sum`: distinctive enough to find in prose. */
function identifierLike(name: string): boolean {
  return name.length >= 4 && /[_.-]|[a-z][A-Z]|\d/.test(name);
}

function otherToolIndex(tools: readonly CatalogTool[]): NameIndex {
  const servers = new Map<string, Set<string>>();
  for (const t of tools) {
    const set = servers.get(t.tool.name) ?? new Set<string>();
    set.add(t.serverId);
    servers.set(t.tool.name, set);
  }
  return { servers };
}

/**
 * A description (or schema text) that names another server's tool, or tells the model to call
 * a tool this server does not offer. Naming its own server's tools is normal ("use
 * read_text_file instead") and not flagged.
 */
function mentions(t: CatalogTool, own: OwnFindings, index: NameIndex): Finding[] {
  const out: Finding[] = [];
  const ownsName = (name: string) => index.servers.get(name)?.has(t.serverId) ?? false;
  for (const { field, name, start, end, quoted } of own.words) {
    const servers = index.servers.get(name);
    if (!servers || ownsName(name)) continue;
    if (!identifierLike(name) && !quoted) continue;
    const other = [...servers][0];
    out.push({
      kind: 'mentions-other-tool',
      field,
      start,
      end,
      detail: `names "${name}", a tool of server "${other}"`,
      other: { serverId: other, tool: name },
    });
  }
  for (const ref of own.refs) {
    if (ownsName(ref.name) || index.servers.has(ref.name)) continue;
    if (!identifierLike(ref.name)) continue;
    out.push({
      kind: 'mentions-other-tool',
      field: ref.field,
      start: ref.start,
      end: ref.end,
      detail: `tells the model to call "${ref.name}", which this server does not offer`,
    });
  }
  return out;
}

/** Word-like tokens that could be tool names (one pass over the text, whatever the catalog's size). */
function* words(text: string): Generator<{ name: string; start: number; end: number; quoted: boolean }> {
  for (const m of text.matchAll(/[\w.-]+/g)) {
    // A sentence's full stop or a dash is punctuation, not part of a name.
    const name = m[0].replace(/^[.-]+|[.-]+$/g, '');
    if (!name) continue;
    const start = m.index + m[0].indexOf(name);
    const end = start + name.length;
    const quoted = /[`'"]/.test(text[start - 1] ?? '') && /[`'"]/.test(text[end] ?? '');
    yield { name, start, end, quoted };
  }
}
