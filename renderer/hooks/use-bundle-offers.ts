import { useCallback, useEffect } from 'react';
import type { BundleOffer } from '../../shared/domain/bundles.js';
import { useHost } from '../host/host-context.js';
import { isBundleFile, offerBundleFile, showOffered } from '../store/bundle-offer-store.js';
import { useHostEvent } from './use-host-state.js';

/**
 * Bundles reaching the window: a .mcpb dropped anywhere (by path in the desktop app, by bytes in
 * a browser) and one the host offers (`bundles.offered`: opened from the file manager, a link).
 * Each opens the install dialog. A drop of anything else is left to the other drop handlers.
 */
export function useBundleOffers(): void {
  const host = useHost();
  const onOffer = useCallback((o: BundleOffer) => void showOffered(host, o), [host]);
  useHostEvent('bundles.offered', onOffer);
  // Offered before this window listened (the app launched by opening a .mcpb).
  useEffect(() => {
    host.invoke('bundles.offers', {}).then(
      (offers) => offers.forEach(onOffer),
      () => undefined, // No bundles here (no data folder): nothing was offered.
    );
  }, [host, onOffer]);
  useEffect(() => {
    const onDragOver = (e: DragEvent) => {
      // Without this a browser opens a dropped file in place of the app.
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    const onDrop = (e: DragEvent) => {
      const bundle = Array.from(e.dataTransfer?.files ?? []).find(isBundleFile);
      if (!bundle) return;
      // Captured before any view sees it: a bundle is never also shared as a folder.
      e.preventDefault();
      e.stopPropagation();
      void offerBundleFile(host, bundle);
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop, true);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop, true);
    };
  }, [host]);
}
