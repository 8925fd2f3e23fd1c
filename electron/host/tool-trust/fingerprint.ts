import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Tool } from '../../../shared/domain/mcp-types.js';
import type { ToolDefinition } from '../../../shared/domain/tool-trust.js';

/**
 * The parts of a tool the model and the person see (name, title, description, schemas,
 * annotations). `_meta` is left out: it is for hosts, not for the model, and servers stamp
 * it with things that change on every list (timestamps, ids).
 */
export function toolDefinition(tool: Tool): ToolDefinition {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
  };
}

/** sha256 (hex) of the definition's canonical JSON (RFC 8785, so key order never matters). */
export function fingerprintDefinition(definition: ToolDefinition): string {
  const canonical = canonicalize(definition) ?? '';
  return createHash('sha256').update(canonical).digest('hex');
}

/** A tool's fingerprint: what a pin records and a later tools/list is compared against. */
export function fingerprintTool(tool: Tool): string {
  return fingerprintDefinition(toolDefinition(tool));
}
