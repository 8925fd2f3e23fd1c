import { createStore } from 'zustand/vanilla';
import {
  MAX_BUNDLE_UPLOAD_BYTES,
  type BundleOffer,
  type BundlePreview,
} from '../../shared/domain/bundles.js';
import type { HostError } from '../../shared/domain/server-state.js';
import type { HostApi } from '../../shared/ipc/contract.js';
import { asHostError } from '../host/errors.js';

/** The install dialog's subject: nothing, a file being read, its preview, or why it was refused. */
export type BundleOfferState =
  | { kind: 'idle' }
  | { kind: 'reading'; fileName: string }
  | { kind: 'preview'; preview: BundlePreview }
  | { kind: 'error'; fileName: string; error: HostError };

/**
 * The one install dialog of the window. Why a store: a bundle can arrive from the Servers view's
 * "Install bundle…", a drop anywhere on the window or the desktop app opening a .mcpb from the
 * file manager (`bundles.offered`), and views may not import each other (DESIGN.md §6.9).
 */
export const bundleOfferStore = createStore<BundleOfferState>(() => ({ kind: 'idle' }));

/** True for a file that looks like an MCP Bundle. */
export function isBundleFile(file: File): boolean {
  return /\.mcpb$/i.test(file.name);
}

/**
 * Preview a picked or dropped .mcpb: by its path where the desktop app can name it, by its bytes
 * otherwise (browser mode; at most MAX_BUNDLE_UPLOAD_BYTES, the bridge's limit).
 */
export async function offerBundleFile(host: HostApi, file: File): Promise<void> {
  await discardCurrent(host);
  bundleOfferStore.setState({ kind: 'reading', fileName: file.name }, true);
  try {
    const path = host.pathForFile?.(file) ?? '';
    let preview: BundlePreview;
    if (path) preview = await host.invoke('bundles.inspect', { path });
    else {
      if (file.size > MAX_BUNDLE_UPLOAD_BYTES) {
        const message = `${file.name} is larger than ${MAX_BUNDLE_UPLOAD_BYTES >> 20} MiB, the most a browser window can send: install it with mcp-desk install or the desktop app`;
        bundleOfferStore.setState(
          { kind: 'error', fileName: file.name, error: { code: 'bundle_invalid', message } },
          true,
        );
        return;
      }
      preview = await host.invoke('bundles.inspect', {
        fileName: file.name.replace(/[/\\]/g, '_'),
        base64: toBase64(new Uint8Array(await file.arrayBuffer())),
      });
    }
    bundleOfferStore.setState({ kind: 'preview', preview }, true);
  } catch (error) {
    bundleOfferStore.setState({ kind: 'error', fileName: file.name, error: asHostError(error) }, true);
  }
}

/** A bundle the host offered (file manager, deep link): show it, replacing what was shown. */
export async function showOffered(host: HostApi, offer: BundleOffer): Promise<void> {
  await discardCurrent(host);
  bundleOfferStore.setState(
    offer.kind === 'preview'
      ? { kind: 'preview', preview: offer.preview }
      : { kind: 'error', fileName: offer.fileName, error: offer.error },
    true,
  );
}

/** Close the dialog; a preview not installed has its staged files removed. */
export async function closeOffer(host: HostApi, installed = false): Promise<void> {
  if (!installed) await discardCurrent(host);
  bundleOfferStore.setState({ kind: 'idle' }, true);
}

async function discardCurrent(host: HostApi): Promise<void> {
  const s = bundleOfferStore.getState();
  if (s.kind !== 'preview') return;
  // Already gone (installed elsewhere, the host restarted) is fine: nothing is left to remove.
  await host.invoke('bundles.discard', { stagingId: s.preview.stagingId }).catch(() => undefined);
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
