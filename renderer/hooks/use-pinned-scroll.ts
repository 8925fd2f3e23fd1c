import { useCallback, useLayoutEffect, useRef } from 'react';

/** How close to the bottom still counts as "at the bottom" (px). */
const NEAR_BOTTOM = 24;

/**
 * Keeps a scroll container pinned to its bottom while the person is there, for content whose
 * height changes after render (a virtualised list measuring its rows, a streaming reply): any
 * resize of the content or the viewport re-pins. Only a scroll *up* away from the bottom
 * unpins, so growth that lands between our scroll and its event cannot unpin by accident.
 * Call it before the virtualiser's hook so its first scroll lands before the range is read.
 */
export function usePinnedScroll<S extends HTMLElement, C extends HTMLElement>() {
  const scrollRef = useRef<S | null>(null);
  const contentRef = useRef<C | null>(null);
  const pinned = useRef(true);
  const lastTop = useRef(0);

  const pin = useCallback(() => {
    const el = scrollRef.current;
    if (el && pinned.current && el.scrollHeight - el.scrollTop - el.clientHeight > 1) {
      el.scrollTop = el.scrollHeight;
      lastTop.current = el.scrollTop;
    }
  }, []);

  useLayoutEffect(() => {
    pin();
    const el = scrollRef.current;
    const content = contentRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(pin);
    observer.observe(el);
    if (content) observer.observe(content);
    return () => observer.disconnect();
  }, [pin]);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM) pinned.current = true;
    else if (el.scrollTop < lastTop.current - 1) pinned.current = false;
    lastTop.current = el.scrollTop;
  }, []);

  return { scrollRef, contentRef, onScroll, pin };
}
