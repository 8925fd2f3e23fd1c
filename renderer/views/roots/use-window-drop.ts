import { useEffect, useState } from 'react';
import { useHost } from '../../host/host-context.js';
import { shareDropped, type AddOutcome } from './folder-drop.js';

/**
 * Folders dropped anywhere on the desktop app's window become roots. Only where the
 * preload can name a dropped File's path (Electron); in a browser the page never learns
 * paths, so nothing is installed and drops keep the Folders view's own handling.
 * Returns whether a drag with files is over the window (for a drop hint).
 */
export function useWindowFolderDrop(onOutcome: (o: AddOutcome) => void): boolean {
  const host = useHost();
  const [over, setOver] = useState(false);
  useEffect(() => {
    if (!host.pathForFile) return;
    const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;
    const onDragOver = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'link';
      setOver(true);
    };
    const onLeave = (e: DragEvent) => {
      // Leaving a child element fires dragleave too; only leaving the window counts.
      if (e.relatedTarget === null) setOver(false);
    };
    const onDrop = (e: DragEvent) => {
      setOver(false);
      // The Folders view handles drops on itself; a second add here would double it.
      if (e.defaultPrevented || !e.dataTransfer || !hasFiles(e)) return;
      e.preventDefault();
      void shareDropped(host, e.dataTransfer).then((o) => o && onOutcome(o));
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [host, onOutcome]);
  return over;
}
