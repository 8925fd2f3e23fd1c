import { useState, type CSSProperties, type PointerEvent as ReactPointerEvent } from 'react';

/** The floating panel's position once dragged by its title bar (none: its corner); kept for the next float. */
export function usePipDrag(active: boolean): {
  style: CSSProperties | undefined;
  onPointerDown: (e: ReactPointerEvent<HTMLDivElement>) => void;
} {
  const [pos, setPos] = useState<{ x: number; y: number } | null>(null);
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest('button')) return;
    const panel = e.currentTarget.parentElement;
    if (!panel) return;
    const box = panel.getBoundingClientRect();
    const dx = e.clientX - box.left;
    const dy = e.clientY - box.top;
    const move = (ev: PointerEvent) => {
      // Kept inside the window, so the bar can always be grabbed again.
      const x = Math.min(Math.max(0, ev.clientX - dx), window.innerWidth - box.width);
      const y = Math.min(Math.max(0, ev.clientY - dy), window.innerHeight - 40);
      setPos({ x, y });
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  return {
    style: active && pos ? { left: pos.x, top: pos.y, right: 'auto', bottom: 'auto' } : undefined,
    onPointerDown,
  };
}
