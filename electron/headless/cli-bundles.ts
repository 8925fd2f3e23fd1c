import { resolve } from 'node:path';
import type { BundlePreview, BundleValue } from '../../shared/domain/bundles.js';
import type { HostServices } from '../host/compose.js';
import type { BundleService } from '../host/bundles/bundle-service.js';
import { HostFailure } from '../host/util/errors.js';
import { describeDryRun } from './cli-dry-run.js';
import { describeNotStored, describeState } from './cli-output.js';

/** `--set KEY=VALUE` pairs as values: a KEY given twice becomes a list (multiple fields). */
export function parseSets(sets: string[]): Record<string, BundleValue> {
  const out: Record<string, BundleValue> = {};
  for (const pair of sets) {
    const eq = pair.indexOf('=');
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const had = out[key];
    out[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [String(had)]), value];
  }
  return out;
}

function bundlesOf(services: HostServices): BundleService {
  if (!services.bundles) throw new HostFailure('unavailable', 'bundles need the app’s data folder');
  return services.bundles;
}

/** The preview as lines a person reads before the result (no sensitive value is ever in it). */
export function describePreview(p: BundlePreview): string[] {
  const lines = [
    `${p.displayName} ${p.version}${p.installed ? ` (update from ${p.installed.version})` : ''} by ${p.author.name}`,
    p.description,
    `signature: ${p.signature.status}${p.signature.publisher ? ` (${p.signature.publisher})` : ''}`,
    `runs on: ${p.serverType}; ${p.compatibility.ok ? 'compatible' : `not compatible: ${p.compatibility.problems.join('; ')}`}`,
    `tools: ${p.tools.map((t) => t.name).join(', ') || 'none declared'}${p.toolsGenerated ? ' (and more at run time)' : ''}`,
  ];
  if (p.prompts.length) lines.push(`prompts: ${p.prompts.map((x) => x.name).join(', ')}`);
  for (const f of p.userConfig)
    lines.push(
      `  ${f.key}: ${f.type}${f.multiple ? '[]' : ''}${f.required ? ', required' : ''}${f.sensitive ? ', sensitive (keychain)' : ''}${f.default !== undefined && !f.sensitive ? `, default ${JSON.stringify(f.default)}` : ''} — ${f.title}`,
    );
  return lines;
}

/**
 * `mcp-desk install FILE.mcpb [--set KEY=VALUE]… [--dry-run] [--json]`: stage, describe, install
 * (or update) with the --set values, then wait for the server once so the person learns whether
 * it runs. With --dry-run: the server runs once in the dry-run sandbox instead, and nothing is installed.
 */
export async function installBundleFile(
  services: HostServices,
  file: string,
  opts: { sets: string[]; json: boolean; waitMs: number; dryRun?: boolean },
  out: (text: string) => void,
): Promise<number> {
  const bundles = bundlesOf(services);
  // Load the server list first (starting nothing): the install adds to it, never replaces it.
  await services.host.init(() => false);
  const preview = await bundles.inspectFile(resolve(file));
  try {
    if (!opts.json) for (const line of describePreview(preview)) out(line);
    if (opts.dryRun) {
      const report = await services.dryRuns.run({ source: 'bundle', stagingId: preview.stagingId });
      const { stagingId: _staging, ...shown } = preview;
      if (opts.json) out(JSON.stringify({ preview: shown, dryRun: report, installed: false }));
      else for (const line of [...describeDryRun(report), 'Not installed (--dry-run).']) out(line);
      return 0;
    }
    const result = await bundles.install(preview.stagingId, parseSets(opts.sets));
    const settled = (await services.host.whenSettled(opts.waitMs)).find((s) => s.id === result.serverId);
    const state = settled ? describeState(settled.state) : 'unknown';
    if (opts.json) {
      const { stagingId: _staging, ...shown } = preview;
      out(JSON.stringify({ preview: shown, installed: result, state }));
    } else {
      out(
        `${result.previousVersion ? `updated ${result.name} ${result.previousVersion} → ${result.version}` : `installed ${result.name} ${result.version}`} as server "${result.serverId}": ${state}`,
      );
      if (result.notStored) out(describeNotStored(result.notStored));
    }
    return 0;
  } finally {
    await bundles.discard(preview.stagingId);
  }
}

/** `mcp-desk uninstall NAME`. */
export async function uninstallBundle(
  services: HostServices,
  name: string,
  json: boolean,
  out: (text: string) => void,
): Promise<number> {
  await services.host.init(() => false);
  await bundlesOf(services).uninstall(name);
  out(json ? JSON.stringify({ uninstalled: name }) : `uninstalled ${name}`);
  return 0;
}
