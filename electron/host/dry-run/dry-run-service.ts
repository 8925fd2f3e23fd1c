import type { CatalogTool } from '../../../shared/domain/catalog.js';
import type { DryRunReport } from '../../../shared/domain/dry-run.js';
import type { Tool } from '../../../shared/domain/mcp-types.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import type { DryRunRequest } from '../../../shared/ipc/channels/dry-run-channels.js';
import type { AuditLog } from '../audit/audit-log.js';
import { launchKey } from '../config/launch-key.js';
import { inspectTools } from '../tool-trust/inspect-tools.js';
import { HostFailure } from '../util/errors.js';
import { runDry, type DryRunDeps } from './dry-run-runner.js';

/** An arriving server's entry, as the preview that holds it would save it. */
export interface ArrivingEntry {
  serverName: string;
  config: ServerConfig;
}

/** Where the entries of each kind of preview come from (bundles exist only with a data folder). */
export interface DryRunSources {
  bundle?: (stagingId: string) => Promise<ArrivingEntry>;
  registry: (req: Extract<DryRunRequest, { source: 'registry' }>) => ArrivingEntry;
  import: (scanId: string, key: string) => ArrivingEntry;
  paste: (json: string, name: string) => ArrivingEntry;
}

/** What the service needs besides what one run needs. */
export interface DryRunServiceDeps extends DryRunDeps {
  sources: DryRunSources;
  /** Every installed server's tools (shadowing compares the new server's names with them). */
  installedTools: () => readonly CatalogTool[];
  /** Pin a server's tools as seen (tool-trust/: a later different list reads as a change). */
  pin: (serverId: string, config: ServerConfig, tools: readonly Tool[]) => void;
  audit?: AuditLog;
}

interface Kept {
  tools: Tool[];
  /** The launch key the dry run ran (registry and import entries must match it to be pinned). */
  key: string;
}

/** Dry runs remembered for their install (a person rarely has more previews open). */
const MAX_KEPT = 50;

/**
 * Dry runs of servers that arrive from outside (bundle, registry or install link, import, paste),
 * before anyone trusts them: run once (dry-run-runner.ts), checked like installed tools
 * (poisoning, hidden characters, shadowing), audited, and remembered per preview so that
 * installing it pins the definitions the person saw.
 */
export class DryRunService {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly deps: DryRunServiceDeps) {}

  /** Dry-run the server a preview holds. */
  async run(req: DryRunRequest): Promise<DryRunReport> {
    const { entry, source } = await this.entryOf(req);
    const { report, tools } = await runDry(entry.serverName, entry.config, this.deps);
    const checked: DryRunReport = { ...report, tools: this.check(entry.serverName, tools) };
    if (report.outcome.kind === 'listed') this.keep(source, { tools, key: launchKey(entry.config) });
    this.deps.audit?.append({
      kind: 'dry-run',
      serverId: entry.serverName,
      action: report.outcome.kind === 'listed' ? 'ran' : report.outcome.kind,
      details: {
        source: req.source,
        sandbox: report.sandbox.kind,
        tools: tools.length,
        ...(report.attempts.recorded
          ? {
              deniedPaths: report.attempts.paths.map((p) => `${p.op} ${p.path}`),
              connections: report.attempts.connections.map((c) => c.address),
            }
          : { notRecorded: report.attempts.reason }),
      },
    });
    return checked;
  }

  /**
   * A previewed server is being saved: pin the tools its dry run listed under the entry it is
   * saved with. A registry or import entry that no longer matches what ran pins nothing (the
   * live list then pins itself); a bundle's entry differs from its staged one only in folder.
   */
  accept(source: string, serverId: string, config: ServerConfig): void {
    const kept = this.kept.get(source);
    if (!kept) return;
    this.kept.delete(source);
    if (!source.startsWith('bundle:') && kept.key !== launchKey(config)) return;
    this.deps.pin(serverId, config, kept.tools);
    this.deps.audit?.append({
      kind: 'dry-run',
      serverId,
      action: 'pinned',
      details: { tools: kept.tools.map((t) => t.name) },
    });
  }

  private async entryOf(req: DryRunRequest): Promise<{ entry: ArrivingEntry; source: string }> {
    switch (req.source) {
      case 'bundle': {
        const bundle = this.deps.sources.bundle;
        if (!bundle)
          throw new HostFailure('unavailable', 'bundles need the app’s data folder; none is used here');
        return { entry: await bundle(req.stagingId), source: bundleSource(req.stagingId) };
      }
      case 'registry':
        return { entry: this.deps.sources.registry(req), source: registrySource(req.previewId) };
      case 'import':
        return {
          entry: this.deps.sources.import(req.scanId, req.key),
          source: importSource(req.scanId, req.key),
        };
      case 'paste':
        return { entry: this.deps.sources.paste(req.json, req.name), source: pasteSource(req.name) };
    }
  }

  /** The integrity checks of installed tools, run on the new ones beside every installed server's. */
  private check(serverId: string, tools: Tool[]): DryRunReport['tools'] {
    const mine: CatalogTool[] = tools.map((tool) => ({ serverId, tool, enabled: true }));
    const others = this.deps.installedTools().filter((t) => t.serverId !== serverId);
    const warnings = inspectTools([...others, ...mine]);
    return mine.map((t) => ({
      name: t.tool.name,
      ...(t.tool.description ? { description: t.tool.description } : {}),
      warnings: warnings.get(t) ?? [],
    }));
  }

  private keep(source: string, kept: Kept): void {
    this.kept.delete(source);
    this.kept.set(source, kept);
    while (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value ?? '');
  }
}

/** The source key a bundle staging's dry run is kept under (see DryRunService.accept). */
export const bundleSource = (stagingId: string) => `bundle:${stagingId}`;
/** The source key of a registry or install-link preview's dry run. */
export const registrySource = (previewId: string) => `registry:${previewId}`;
/**
 * The source key of a pasted server's dry run: its name (the launch key check in accept keeps
 * an edited paste of the same name from being pinned with what ran before).
 */
export const pasteSource = (name: string) => `paste:${name}`;
/** The source key of an import candidate's dry run. */
export const importSource = (scanId: string, key: string) => `import:${scanId}:${key}`;
