import type { CatalogTool } from '../../../shared/domain/catalog.js';
import type { Tool } from '../../../shared/domain/mcp-types.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { BundleService } from '../bundles/bundle-service.js';
import type { LaunchContext } from '../connection/launch.js';
import { systemSandboxDetector, type SandboxDetector } from '../connection/sandbox/sandbox-detector.js';
import type { ImportService } from '../imports/import-service.js';
import type { RegistryService } from '../registry/registry-service.js';
import { bundleSource, DryRunService, importSource, pasteSource, registrySource } from './dry-run-service.js';

/**
 * The hooks the install paths call just before they save an entry: the dry run of that
 * preview pins what it saw. Made before the services that call them; bound once the dry-run
 * service exists (it needs those services as its sources).
 */
export class DryRunHooks {
  private service?: DryRunService;

  bind(service: DryRunService): void {
    this.service = service;
  }

  readonly bundle = (stagingId: string, serverId: string, entry: ServerConfig) =>
    this.service?.accept(bundleSource(stagingId), serverId, entry);
  readonly registry = (previewId: string, serverId: string, entry: ServerConfig) =>
    this.service?.accept(registrySource(previewId), serverId, entry);
  readonly import = (scanId: string, key: string, serverId: string, entry: ServerConfig) =>
    this.service?.accept(importSource(scanId, key), serverId, entry);
  readonly paste = (serverId: string, entry: ServerConfig) =>
    this.service?.accept(pasteSource(serverId), serverId, entry);
}

/** The dry-run service over the host's install paths, with the hooks bound to it. */
export function composeDryRuns(d: {
  hooks: DryRunHooks;
  launch: LaunchContext;
  sandbox?: SandboxDetector;
  bundles?: BundleService;
  registry: RegistryService;
  imports: ImportService;
  installedTools: () => readonly CatalogTool[];
  pin: (serverId: string, config: ServerConfig, tools: readonly Tool[]) => void;
  audit: AuditLog;
}): DryRunService {
  const bundles = d.bundles;
  const service = new DryRunService({
    launch: d.launch,
    sandbox: d.sandbox ?? systemSandboxDetector,
    sources: {
      ...(bundles ? { bundle: (id: string) => bundles.entryForDryRun(id) } : {}),
      registry: (req) => d.registry.entryForDryRun(req),
      import: (scanId, key) => d.imports.entryForDryRun(scanId, key),
      paste: (json, name) => d.imports.pastedEntryForDryRun(json, name),
    },
    installedTools: d.installedTools,
    pin: d.pin,
    audit: d.audit,
  });
  d.hooks.bind(service);
  return service;
}
