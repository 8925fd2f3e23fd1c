import { lazy, Suspense } from 'react';
import { useStore } from 'zustand';
import { bundleOfferStore } from '../../store/bundle-offer-store.js';

// The dialog's code (summary, user_config form) arrives with the first bundle, not the first paint.
const BundleDialog = lazy(() => import('./bundle-dialog.js').then((m) => ({ default: m.BundleDialog })));

/** The bundle install dialog, mounted (and its chunk fetched) only while a bundle is on offer. */
export function BundleDialogSlot({ onInstalled }: { onInstalled: () => void }) {
  const idle = useStore(bundleOfferStore, (s) => s.kind === 'idle');
  if (idle) return null;
  return (
    <Suspense fallback={null}>
      <BundleDialog onInstalled={onInstalled} />
    </Suspense>
  );
}
