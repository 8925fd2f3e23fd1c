import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CallToolResult } from '../../shared/domain/mcp-types.js';
import { previewView } from '../host/apps/view-preview.js';
import type { HostServices } from '../host/compose.js';
import { firstText } from './cli-output.js';

/** What `mcp-desk app` wrote, as `--json` prints it. */
export interface AppCommandOutput {
  dir: string;
  files: string[];
  resourceUri: string;
  cspApplied: string;
  isError: boolean;
}

/**
 * `mcp-desk app SERVER TOOL [JSON_ARGS] --out DIR`: check the tool has a view, read the view
 * (same checks and CSP builder as the app), call the tool, then write DIR/view.html,
 * DIR/csp.txt (the policy its sandbox page would carry) and DIR/result.json. Nothing is
 * rendered or run. Throws a HostFailure for an unknown tool or a tool without a view.
 */
export async function runAppCommand(
  services: HostServices,
  req: { serverId: string; tool: string; args: Record<string, unknown>; outDir: string; timeoutMs?: number },
): Promise<{ output: AppCommandOutput; result: CallToolResult }> {
  const { host } = services;
  // The view first: a tool without one fails before it runs.
  const preview = await previewView(
    { catalog: () => host.catalog(), read: (id, uri) => host.readResource(id, uri) },
    req.serverId,
    req.tool,
  );
  const result = await host.callTool(req.serverId, req.tool, req.args, {
    ...(req.timeoutMs !== undefined ? { timeoutMs: req.timeoutMs } : {}),
  });
  const dir = resolve(req.outDir);
  await mkdir(dir, { recursive: true });
  const files = {
    'view.html': preview.html,
    'csp.txt': `${preview.cspApplied}\n`,
    'result.json': `${JSON.stringify(result, null, 2)}\n`,
  };
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  return {
    result,
    output: {
      dir,
      files: Object.keys(files).map((f) => join(dir, f)),
      resourceUri: preview.ui.resourceUri,
      cspApplied: preview.cspApplied,
      isError: result.isError === true,
    },
  };
}

/** The human summary of what `app` wrote. */
export function describeAppOutput(o: AppCommandOutput, result: CallToolResult): string {
  return [
    `view ${o.resourceUri}`,
    ...o.files.map((f) => `wrote ${f}`),
    ...(o.isError ? [`the tool returned an error: ${firstText(result)}`] : []),
  ].join('\n');
}
