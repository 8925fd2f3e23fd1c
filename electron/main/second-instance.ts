import { bundlePathsIn, type BundleOpener } from './bundle-opener.js';
import { linkInArgv, type DeepLinkHook } from './deep-links.js';
import { launchActionsIn, type LaunchActions } from './launch-entries.js';

/** Where each thing a command line can carry goes. */
export interface ArgvTargets {
  deepLinks: Pick<DeepLinkHook, 'receive'>;
  bundles: Pick<BundleOpener, 'open'>;
  actions: Pick<LaunchActions, 'run'>;
}

/**
 * Dispatch a command line: an `mcp-desk://` link, `.mcpb` paths (file associations) and the
 * `--new-chat` / `--quick-ask` flags (jump-list tasks). Used for a second instance's argv,
 * which the single-instance lock hands to the first one, and for the first launch's flags.
 */
export function dispatchArgv(argv: readonly string[], targets: ArgvTargets): void {
  const link = linkInArgv(argv);
  if (link) targets.deepLinks.receive(link);
  // A link that happens to end in .mcpb is a link, not a file.
  for (const path of bundlePathsIn(argv)) if (path !== link) targets.bundles.open(path);
  for (const action of launchActionsIn(argv)) targets.actions.run(action);
}
