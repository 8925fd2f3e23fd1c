import type { CallToolResult } from '../../../shared/domain/mcp-types.js';
import type { ToolWarning } from '../../../shared/domain/tool-trust.js';
import { groupFindings, type Finding } from './findings.js';
import { inspectText } from './inspect-text.js';

/** At most this many strings of one result are read (a result with a million tiny strings is data, not prose). */
const MAX_STRINGS = 2000;
/** And at most this many characters in all: a 10 MB result costs the chat no more than a large page. */
const MAX_CHARS = 1_000_000;

/**
 * Injection markers in a tool result: hidden characters, text addressed to the model, requests
 * for secrets and ways to send data out. A result is data, not orders: the model still gets it
 * (framed as tool output, as always) and the tool card shows these warnings beside it.
 */
export function inspectResult(result: CallToolResult): ToolWarning[] {
  const findings: Finding[] = [];
  // structuredContent often repeats a text block word for word: read each string once.
  let budget = MAX_CHARS;
  for (const text of new Set(resultTexts(result))) {
    if (budget <= 0) break;
    const read = text.length > budget ? text.slice(0, budget) : text;
    budget -= read.length;
    for (const finding of inspectText({ field: 'result', mode: 'result' }, read))
      findings.push({ ...finding, source: read });
  }
  return groupFindings(findings, () => '');
}

/** Every string in a result a model reads: text blocks, embedded text resources, link texts, structured content. */
function resultTexts(result: CallToolResult): string[] {
  const out: string[] = [];
  for (const block of result.content ?? []) {
    if (out.length >= MAX_STRINGS) break;
    if (block.type === 'text') out.push(block.text);
    else if (block.type === 'resource' && typeof block.resource.text === 'string')
      out.push(block.resource.text);
    else if (block.type === 'resource_link') {
      out.push(block.name);
      if (block.description) out.push(block.description);
    }
  }
  collect(result.structuredContent, out, 0);
  return out;
}

function collect(value: unknown, out: string[], depth: number): void {
  if (out.length >= MAX_STRINGS || depth > 32) return;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) collect(v, out, depth + 1);
  else if (value && typeof value === 'object')
    for (const v of Object.values(value)) collect(v, out, depth + 1);
}
