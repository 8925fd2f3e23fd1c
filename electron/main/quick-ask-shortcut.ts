import { globalShortcut } from 'electron';

/** The default global shortcut for the quick-ask window. */
export const DEFAULT_QUICK_ASK_SHORTCUT = 'CommandOrControl+Shift+Space';

/**
 * Register the quick-ask shortcut. Another app may own it already (registration then
 * fails silently in Electron): the tray says so, and the menu item still works.
 * MCP_DESK_QUICK_ASK_SHORTCUT picks another accelerator; "off" registers none.
 */
export function registerQuickAskShortcut(
  onPress: () => void,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const wanted = env.MCP_DESK_QUICK_ASK_SHORTCUT?.trim() || DEFAULT_QUICK_ASK_SHORTCUT;
  if (wanted.toLowerCase() === 'off') return undefined;
  try {
    if (globalShortcut.register(wanted, onPress)) return wanted;
  } catch (error) {
    // An accelerator string Electron cannot parse throws; the app must still start.
    console.warn(`quick ask: "${wanted}" is not a valid shortcut (${(error as Error).message})`);
    return undefined;
  }
  console.warn(
    `quick ask: the shortcut ${wanted} is taken by another application; use the tray menu instead`,
  );
  return undefined;
}
