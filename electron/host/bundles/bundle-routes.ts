import type { HandlersOf } from '../route-handlers.js';
import type { bundleChannels } from '../../../shared/ipc/channels/bundle-channels.js';
import { HostFailure } from '../util/errors.js';
import type { BundleService } from './bundle-service.js';

type BundleChannel = keyof typeof bundleChannels;
type Handlers = HandlersOf<BundleChannel>;

/** The bundles.* channels, bound to the service (or refusing, where there is no data folder). */
export function bundleHandlers(bundles: BundleService | undefined): Handlers {
  const service = (): BundleService => {
    if (!bundles)
      throw new HostFailure('unavailable', 'bundles need the app’s data folder; none is used here');
    return bundles;
  };
  return {
    'bundles.inspect': (r) =>
      'path' in r ? service().inspectFile(r.path) : service().inspectBytes(r.fileName, r.base64),
    'bundles.install': (r) => service().install(r.stagingId, r.values),
    'bundles.discard': async (r) => {
      await service().discard(r.stagingId);
      return null;
    },
    'bundles.list': () => service().list(),
    'bundles.offers': async () => service().takeOffers(),
    'bundles.uninstall': async (r) => {
      await service().uninstall(r.name);
      return null;
    },
  };
}

/**
 * Removing a bundle's server from the Servers view uninstalls the bundle (files, secrets too).
 * True when it did; false for any other server, which the caller removes as usual.
 */
export async function removeBundleServer(bundles: BundleService | undefined, id: string): Promise<boolean> {
  if (!bundles) return false;
  const installed = (await bundles.list()).find((b) => b.serverId === id);
  if (!installed) return false;
  await bundles.uninstall(installed.name);
  return true;
}
