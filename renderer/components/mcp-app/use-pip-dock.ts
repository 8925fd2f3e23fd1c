import { useEffect, useState, type RefObject } from 'react';

/** The gap between the floating view and the composer it sits above (and the window's edge). */
const GAP = 12;

/**
 * Where a floating (pip) view sits while nobody has dragged it: its bottom edge just above the
 * chat's composer, so it never covers the message box or Send, following the composer as it
 * grows and the window as it resizes; at the window's corner where there is no composer (the
 * Tools view). The number is the panel's distance from the window's bottom edge.
 */
export function usePipDock(active: boolean, panel: RefObject<HTMLElement | null>): number | null {
  const [bottom, setBottom] = useState<number | null>(null);
  useEffect(() => {
    if (!active) return undefined;
    const composer = panel.current?.closest('.chat-main')?.querySelector<HTMLElement>('.composer');
    const place = () => {
      const box = composer?.getBoundingClientRect();
      // A hidden composer (another view is shown) has no box worth docking to.
      setBottom(box && box.height > 0 ? Math.max(GAP, window.innerHeight - box.top + GAP) : GAP);
    };
    place();
    const observer = new ResizeObserver(place);
    if (composer) observer.observe(composer);
    window.addEventListener('resize', place);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', place);
    };
  }, [active, panel]);
  return active ? bottom : null;
}
