import { join } from 'node:path';
import { BundleService, type BundleServiceDeps } from '../bundles/bundle-service.js';
import type { HostEvents } from '../host-events.js';
import { defaultDataDir } from '../paths.js';
import type { DisposeStack } from '../util/disposable.js';
import { DeepLinkInbox } from './deep-link-inbox.js';
import { RegistryClient } from './registry-client.js';
import { RegistryService, type RegistryServiceDeps } from './registry-service.js';

/** What the ways servers arrive from outside (bundles, registry entries, install links) need. */
export interface InstallsDeps {
  events: HostEvents;
  env: NodeJS.ProcessEnv;
  dataDir: string | undefined;
  /** Where bundles are unpacked (`<dataDir>/bundles` by default). */
  bundlesDir: string | undefined;
  /** The bundle service's own needs, less its folder. */
  bundle: Omit<BundleServiceDeps, 'dir' | 'events'>;
  /** The registry's needs, less the bundles and downloads it gets here. */
  registry: Omit<RegistryServiceDeps, 'client' | 'bundles' | 'downloadsDir'>;
}

/**
 * Bundles, registry entries and install links on the composition root's stack. Bundles live in
 * the data folder: one-shot CLI runs without one have none, and the registry's mcpb packages
 * then cannot continue in the bundle flow.
 */
export async function composeInstalls(
  d: InstallsDeps,
  stack: DisposeStack,
): Promise<{ bundles?: BundleService; registry: RegistryService; deepLinks: DeepLinkInbox }> {
  const bundlesDir = d.bundlesDir ?? (d.dataDir ? join(d.dataDir, 'bundles') : undefined);
  const bundles = bundlesDir
    ? stack.use(await BundleService.open({ ...d.bundle, dir: bundlesDir, events: d.events }))
    : undefined;
  const registry = new RegistryService({
    ...d.registry,
    client: new RegistryClient(),
    bundles,
    downloadsDir: join(bundlesDir ?? join(d.dataDir ?? defaultDataDir(d.env), 'bundles'), '.downloads'),
  });
  return { bundles, registry, deepLinks: new DeepLinkInbox(d.events) };
}
