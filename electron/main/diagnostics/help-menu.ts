import { clipboard, shell, type MenuItemConstructorOptions } from 'electron';
import { mkdir } from 'node:fs/promises';

/** What the Help menu's items need. */
export interface HelpMenuDeps {
  /** The folder with main.log and its rotated files. */
  logsDir: string;
  /** The diagnostics text (the host builds it: no secret, no config value). */
  diagnostics: () => string;
  /** Told when the folder could not be opened. */
  onError: (text: string) => void;
}

/** The Help menu's own items (the app menu, app-menu.ts, holds them): the logs folder and the diagnostics for a bug report. */
export function helpItems(deps: HelpMenuDeps): MenuItemConstructorOptions[] {
  return [
    { label: 'Open logs folder', click: () => void openLogsFolder(deps) },
    { label: 'Copy diagnostics', click: () => clipboard.writeText(deps.diagnostics()) },
  ];
}

async function openLogsFolder(deps: HelpMenuDeps): Promise<void> {
  try {
    // A fresh install may not have logged anything yet: the folder still opens.
    await mkdir(deps.logsDir, { recursive: true, mode: 0o700 });
    const failure = await shell.openPath(deps.logsDir);
    if (failure) deps.onError(`cannot open the logs folder: ${failure}`);
  } catch (error) {
    deps.onError(`cannot open the logs folder: ${(error as Error).message}`);
  }
}
