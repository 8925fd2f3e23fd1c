import type { ImportHostId } from '../../../shared/domain/imports.js';
import { claudeDesktop } from './claude-desktop.js';
import type { HostImporter } from './importer.js';

/** Every host we import from, in the order the import view lists them. */
export const IMPORTERS: readonly HostImporter[] = [claudeDesktop];

/** The importer of one host id, or undefined. */
export function importerFor(id: ImportHostId): HostImporter | undefined {
  return IMPORTERS.find((i) => i.id === id);
}
