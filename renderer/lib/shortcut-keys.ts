/** True on macOS, where the app's shortcuts use ⌘ instead of Ctrl. */
export const IS_MAC =
  typeof navigator !== 'undefined' && /mac/i.test(navigator.platform || navigator.userAgent);

/** One app shortcut: the key (KeyboardEvent.key, lower case) and its modifiers. */
export interface KeyCombo {
  key: string;
  /** Ctrl, or ⌘ on macOS. */
  mod?: boolean;
  shift?: boolean;
}

/** Whether a key event is exactly this combination (no extra modifiers). */
export function matches(e: KeyboardEvent, c: KeyCombo): boolean {
  const mod = IS_MAC ? e.metaKey : e.ctrlKey;
  const other = IS_MAC ? e.ctrlKey : e.metaKey;
  return (
    e.key.toLowerCase() === c.key &&
    mod === Boolean(c.mod) &&
    e.shiftKey === Boolean(c.shift) &&
    !e.altKey &&
    !other
  );
}

/** How a combination is written for people on this platform, e.g. "Ctrl+Shift+O" or "⌘⇧O". */
export function comboLabel(c: KeyCombo): string {
  const key = c.key === 'escape' ? 'Esc' : c.key.length === 1 ? c.key.toUpperCase() : c.key;
  if (IS_MAC) return `${c.mod ? '⌘' : ''}${c.shift ? '⇧' : ''}${key}`;
  return [c.mod ? 'Ctrl' : '', c.shift ? 'Shift' : '', key].filter(Boolean).join('+');
}
