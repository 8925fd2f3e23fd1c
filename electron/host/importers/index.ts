import type { ImportHostId } from '../../../shared/domain/imports.js';
import { claudeCode } from './claude-code.js';
import { claudeDesktop } from './claude-desktop.js';
import { codex } from './codex.js';
import { cursor } from './cursor.js';
import { geminiCli } from './gemini-cli.js';
import { goose } from './goose.js';
import type { HostImporter } from './importer.js';
import { lmStudio } from './lm-studio.js';
import { vscode } from './vscode.js';
import { windsurf } from './windsurf.js';
import { zed } from './zed.js';

/** Every host we import from, in the order the import view lists them. */
export const IMPORTERS: readonly HostImporter[] = [
  claudeDesktop,
  claudeCode,
  vscode,
  cursor,
  windsurf,
  geminiCli,
  zed,
  goose,
  codex,
  lmStudio,
];

/** The importer of one host id, or undefined. */
export function importerFor(id: ImportHostId): HostImporter | undefined {
  return IMPORTERS.find((i) => i.id === id);
}
