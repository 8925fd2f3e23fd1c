import type { HostError } from '../../../shared/domain/server-state.js';
import type { HostApi, RootsAddResult } from '../../../shared/ipc/contract.js';
import { asHostError } from '../../host/errors.js';
import { fileUrisFromUriList } from './dropped-uris.js';

/** What adding folders came to: shown by the Folders view, wherever the drop happened. */
export type AddOutcome = { kind: 'added'; result: RootsAddResult } | { kind: 'error'; error: HostError };

/** True when a drag carries something we can turn into folders (real files, or file:// URIs). */
export function dragHasFolders(types: readonly string[]): boolean {
  return types.includes('Files') || types.includes('text/uri-list');
}

/**
 * Share what was dropped. In the desktop app the preload turns each dropped File into its
 * path and the host checks it is a folder (`roots.add`); a browser never reveals paths, so
 * there only file:// URIs in text/uri-list can be added (`roots.set`, also host-checked).
 * Undefined when the drop held nothing usable, so the caller can leave it alone.
 */
export async function shareDropped(host: HostApi, data: DataTransfer): Promise<AddOutcome | undefined> {
  try {
    const paths = host.pathForFile
      ? Array.from(data.files, (f) => host.pathForFile?.(f) ?? '').filter((p) => p !== '')
      : [];
    if (paths.length > 0) return { kind: 'added', result: await host.invoke('roots.add', { paths }) };
    const uris = fileUrisFromUriList(data.getData('text/uri-list'));
    if (uris.length === 0) {
      if (data.files.length === 0) return undefined;
      return {
        kind: 'error',
        error: {
          code: 'no_path',
          message: 'the dropped items have no local path here: type the folder path instead',
        },
      };
    }
    const before = await host.invoke('roots.list', {});
    const roots = await host.invoke('roots.set', { roots: [...before, ...uris.map((uri) => ({ uri }))] });
    return { kind: 'added', result: { roots, added: uris, refused: [] } };
  } catch (e) {
    return { kind: 'error', error: asHostError(e) };
  }
}
