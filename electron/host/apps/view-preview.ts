import type { CatalogSnapshot } from '../../../shared/domain/catalog.js';
import {
  toolUiOf,
  type AppCspDomains,
  type AppPermission,
  type ToolUi,
} from '../../../shared/domain/mcp-apps.js';
import { HostFailure } from '../util/errors.js';
import { buildCsp, readViewMeta } from './app-csp.js';
import { ViewResources, type ReadResource } from './view-resources.js';

/** A tool's view as the host would show it, for inspection (the CLI's `app` command). */
export interface ViewPreview {
  serverId: string;
  toolName: string;
  ui: ToolUi & { resourceUri: string };
  html: string;
  csp: AppCspDomains;
  /** The Content-Security-Policy the sandbox page would carry. */
  cspApplied: string;
  refusedDomains: string[];
  permissionsRequested: AppPermission[];
  prefersBorder?: boolean;
}

/**
 * Read a tool's view the way AppViews.open does (same resource checks, same CSP builder)
 * without registering a view or needing a sandbox: nothing is rendered, so nothing can run.
 */
export async function previewView(
  deps: { catalog: () => CatalogSnapshot; read: ReadResource },
  serverId: string,
  toolName: string,
): Promise<ViewPreview> {
  const entry = deps.catalog().tools.find((t) => t.serverId === serverId && t.tool.name === toolName);
  if (!entry) throw new HostFailure('unknown_tool', `"${serverId}" has no tool "${toolName}".`);
  const ui = toolUiOf(entry.tool);
  if (!ui.resourceUri)
    throw new HostFailure('no_view', `"${toolName}" on "${serverId}" has no interactive view.`, {
      hint: 'mcp-desk tools --json marks the tools that have one with ui.resourceUri.',
    });
  const doc = await new ViewResources(deps.read).get(serverId, ui.resourceUri, 'preview');
  const meta = readViewMeta(doc.content);
  return {
    serverId,
    toolName,
    ui: { ...ui, resourceUri: ui.resourceUri },
    html: doc.html,
    csp: meta.csp,
    cspApplied: buildCsp(meta.csp),
    refusedDomains: meta.droppedDomains,
    permissionsRequested: meta.permissions,
    ...(meta.prefersBorder !== undefined ? { prefersBorder: meta.prefersBorder } : {}),
  };
}
