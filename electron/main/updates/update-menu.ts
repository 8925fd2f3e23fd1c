import { dialog, type MenuItemConstructorOptions } from 'electron';
import type { RestartOffer, RestartResult } from './update-controller.js';

/**
 * The "Restart to update (vX)" item for the tray and the app menu, or none. Its tooltip carries
 * the first line of the release notes where the platform shows menu tooltips (macOS); the full
 * notes are in the dialog its click opens.
 */
export function updateMenuItems(
  offer: RestartOffer | undefined,
  onClick: () => void,
): MenuItemConstructorOptions[] {
  if (!offer) return [];
  const firstLine = offer.releaseNotes.split('\n', 1)[0]?.trim();
  return [{ label: offer.label, ...(firstLine ? { toolTip: firstLine } : {}), click: onClick }];
}

/**
 * Show the release notes and ask before restarting. The restart itself asks the controller
 * again, which refuses if a request started waiting while the dialog was open.
 */
export async function confirmRestart(offer: RestartOffer, restart: () => RestartResult): Promise<void> {
  const { response } = await dialog.showMessageBox({
    type: 'info',
    title: 'Update ready',
    message: `MCP Desk ${offer.version} is ready to install`,
    detail: `${offer.releaseNotes || 'No release notes were published with this version.'}\n\nMCP Desk will quit, install the update and start again.`,
    buttons: ['Restart now', 'Later'],
    defaultId: 0,
    cancelId: 1,
  });
  if (response !== 0) return;
  const result = restart();
  if (result.kind === 'refused')
    await dialog.showMessageBox({
      type: 'warning',
      title: 'Update not installed',
      message: 'MCP Desk did not restart',
      detail: `${result.reason}. The update stays ready; restart from the tray or the app menu later.`,
    });
}
