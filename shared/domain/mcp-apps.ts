/**
 * MCP Apps (`io.modelcontextprotocol/ui`, ext-apps specification 2026-01-26): what a tool's
 * `_meta.ui` says, and what the host hands the renderer to show a view. Read from the
 * wire here, in shared/, so the host (which enforces visibility) and the renderer (which
 * badges app-only tools) agree on one reading.
 */

/** The extension's id in `capabilities.extensions`. */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The one MIME type a view resource may have. */
export const MCP_APP_MIME = 'text/html;profile=mcp-app';

/** Who may call a tool: the model, the tool's own view, or both (the default). */
export type ToolAudience = 'model' | 'app';

/** A tool's view link and visibility, read from `_meta`. */
export interface ToolUi {
  /** The `ui://` resource holding the tool's view, when it has one. */
  resourceUri?: string;
  /** Never empty; `["model", "app"]` when the server says nothing. */
  visibility: ToolAudience[];
}

const DEFAULT_VISIBILITY: ToolAudience[] = ['model', 'app'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Read `_meta.ui` (and the deprecated flat `_meta["ui/resourceUri"]`). A malformed value
 * counts as absent; a `visibility` list with no known audience falls back to the default
 * rather than hiding the tool from everyone.
 */
export function toolUiOf(tool: { _meta?: unknown }): ToolUi {
  const meta = isRecord(tool._meta) ? tool._meta : {};
  const ui = isRecord(meta.ui) ? meta.ui : {};
  const uri = typeof ui.resourceUri === 'string' ? ui.resourceUri : meta['ui/resourceUri'];
  const declared = Array.isArray(ui.visibility)
    ? ui.visibility.filter((v): v is ToolAudience => v === 'model' || v === 'app')
    : [];
  return {
    ...(typeof uri === 'string' && uri.startsWith('ui://') ? { resourceUri: uri } : {}),
    visibility: declared.length ? [...new Set(declared)] : DEFAULT_VISIBILITY,
  };
}

/** Whether the model may be offered this tool. */
export function modelMayCall(tool: { _meta?: unknown }): boolean {
  return toolUiOf(tool).visibility.includes('model');
}

/** Whether a view of the tool's own server may call it. */
export function appMayCall(tool: { _meta?: unknown }): boolean {
  return toolUiOf(tool).visibility.includes('app');
}

/** The origins a view declared in `_meta.ui.csp` on its resource content. */
export interface AppCspDomains {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
}

/** The origins a view declared it will reach outside the sandbox (audited, and warned about). */
export function externalOrigins(csp: AppCspDomains): string[] {
  return [
    ...new Set([...csp.connectDomains, ...csp.resourceDomains, ...csp.frameDomains, ...csp.baseUriDomains]),
  ];
}

/** Device permissions a view may ask for (`_meta.ui.permissions`). */
export type AppPermission = 'camera' | 'microphone' | 'geolocation' | 'clipboardWrite';

/**
 * A view's proxy page URL plus this is a page on the view's origin that clears what the view
 * stored there (Clear-Site-Data); the app loads it, hidden, when the view closes.
 */
export const SANDBOX_FORGET_SUFFIX = '/forget';

/** Everything the renderer needs to show one view, after the host checked and built it. */
export interface AppViewHandle {
  /** Names this view in every later request (`apps.*`); unguessable, host-issued. */
  viewId: string;
  serverId: string;
  toolName: string;
  resourceUri: string;
  /** The view's HTML, to hand to the sandbox proxy. */
  html: string;
  /** The sandbox proxy page to load in the outer iframe (an origin of this view's own). */
  sandboxUrl: string;
  /** The origin of sandboxUrl, this view's alone: messages from anything else are ignored. */
  sandboxOrigin: string;
  /** Whether the host blocks the view's WebRTC (the desktop app); otherwise the view says it cannot. */
  webRtcBlocked: boolean;
  /** The domains the view declared (shown to the person; external ones warned about). */
  csp: AppCspDomains;
  /** The Content-Security-Policy the sandbox applies, exactly. */
  cspApplied: string;
  /** Permissions the view asked for, and those the person granted for this server. */
  permissions: { requested: AppPermission[]; granted: AppPermission[] };
  /** The server prefers a visible border around the view. */
  prefersBorder?: boolean;
}
