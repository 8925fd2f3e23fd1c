import type { CatalogSnapshot } from '../../shared/domain/catalog.js';
import { toolUiOf, type ToolUi } from '../../shared/domain/mcp-apps.js';
import type { CallToolResult, ContentBlock } from '../../shared/domain/mcp-types.js';
import type { SecretsNotStored } from '../../shared/domain/server-secrets.js';
import type { ServerState, ServerSummary } from '../../shared/domain/server-state.js';
import type { ToolPinStatus, ToolWarning } from '../../shared/domain/tool-trust.js';
import type { HostError } from '../../shared/ipc/host-error.js';

/** The line an install or import prints for secrets it could not store (no OS keychain here). */
export function describeNotStored(n: SecretsNotStored): string {
  const refs = n.names.map((name) => `\${secret:${name}}`).join(', ');
  return `not set — no keychain here: ${refs} (${n.reason})`;
}

/** One server as `servers --json` prints it. */
export function serverJson(s: ServerSummary): Record<string, unknown> {
  const st = s.state;
  return {
    name: s.id,
    state: st.kind,
    transport: s.transport,
    ...(st.kind === 'connected'
      ? { era: st.info.protocolEra, protocolVersion: st.info.protocolVersion, server: st.info.name }
      : {}),
    ...(st.kind === 'failed' ? errorJson(st.error) : {}),
    ...(st.kind === 'reconnecting' ? errorJson(st.lastError) : {}),
    ...(st.kind === 'auth-required' ? { error: st.message } : {}),
    tools: s.counts.tools,
  };
}

function errorJson(e: HostError): Record<string, unknown> {
  return { error: e.message, errorCode: e.code, ...(e.details?.hint ? { hint: e.details.hint } : {}) };
}

/** The plain message, then the host's next step, on one line (the UI shows the two apart). */
export function withHint(e: HostError): string {
  const hint = e.details?.hint;
  if (!hint) return e.message;
  return `${e.message}${/[.?!]$/.test(e.message) ? '' : '.'} Hint: ${hint}`;
}

/** A one-line human description of a state. */
export function describeState(st: ServerState): string {
  switch (st.kind) {
    case 'connected':
      return `connected (${st.info.name} ${st.info.version}, ${st.info.protocolEra === 'modern' ? '2026-07-28' : (st.info.protocolVersion ?? '2025')})`;
    case 'failed':
      return `failed: ${withHint(st.error)}`;
    case 'reconnecting':
      return `reconnecting (attempt ${st.attempt}): ${withHint(st.lastError)}`;
    case 'connecting':
      return 'connecting';
    case 'disabled':
      return 'disabled';
    case 'auth-required':
      return `sign-in needed: ${st.message}`;
    case 'authenticating':
      return 'signing in';
  }
}

/** One row of `tools --json`. */
export interface ToolRow {
  server: string;
  name: string;
  description: string;
  /** MCP Apps: the tool's view and who may call it; only on tools that declare `_meta.ui`. */
  ui?: ToolUi;
  /** sha256 of the tool's canonical definition (what its pin records). */
  fingerprint?: string;
  /** `pinned`, or `changed` since it was approved (review it in the app). */
  pin?: ToolPinStatus;
  /** When a changed tool's change was first seen. */
  changedAt?: string;
  /** Poisoning and shadowing warnings, with reasons. */
  warnings?: ToolWarning[];
}

/** `tools --json`: a flat array of {server, name, description, ui?, fingerprint, pin, warnings}. */
export function toolsJson(cat: CatalogSnapshot): ToolRow[] {
  return cat.tools.map((t) => {
    const ui = toolUiOf(t.tool);
    // Only tools that say something about MCP Apps get the key; plain tools keep their three fields.
    const declared = ui.resourceUri !== undefined || ui.visibility.length !== 2;
    return {
      server: t.serverId,
      name: t.tool.name,
      description: t.tool.description ?? '',
      ...(declared ? { ui } : {}),
      ...(t.trust
        ? {
            fingerprint: t.trust.fingerprint,
            pin: t.trust.pin,
            ...(t.trust.changedAt ? { changedAt: t.trust.changedAt } : {}),
            warnings: t.trust.warnings,
          }
        : {}),
    };
  });
}

/** Human rendering of a tool result's content. */
export function renderContent(result: CallToolResult): string {
  const parts = result.content.map(renderBlock);
  if (result.structuredContent && !result.content.length)
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  return parts.join('\n');
}

function renderBlock(b: ContentBlock): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'image':
    case 'audio':
      return `[${b.type} ${b.mimeType}, ${Math.round((b.data.length * 3) / 4)} bytes]`;
    case 'resource':
      return (
        b.resource.text ??
        `[resource ${b.resource.uri}${b.resource.mimeType ? ` ${b.resource.mimeType}` : ''}]`
      );
    case 'resource_link':
      return `[link ${b.name}: ${b.uri}]`;
  }
}

/** The first text of an error result, for a one-line reason. */
export function firstText(result: CallToolResult): string {
  const t = result.content.find((b) => b.type === 'text');
  return t && t.type === 'text' ? t.text.split('\n')[0].slice(0, 300) : 'the tool returned an error';
}
