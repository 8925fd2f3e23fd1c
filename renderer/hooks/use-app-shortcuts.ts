import { useEffect, useRef } from 'react';
import type { ViewName } from '../components/nav.js';
import { comboLabel, matches, type KeyCombo } from '../lib/shortcut-keys.js';
import { showTarget } from './use-view-target.js';

/** What the shortcuts do that only the shell can. */
export interface AppShortcutActions {
  setView: (view: ViewName) => void;
  openPalette: () => void;
  /** Ctrl/⌘+N is the browser's own "new window" there, so it is only ours in the desktop app. */
  desktop: boolean;
}

type ShortcutId = 'palette' | 'new-chat' | 'search' | 'composer' | 'settings' | 'escape';

/** One app shortcut as the Settings page lists it. */
export interface AppShortcut {
  id: ShortcutId;
  combos: KeyCombo[];
  description: string;
}

// Ctrl+Shift+O for a new chat works in a browser tab too (Ctrl+N there opens a browser window,
// which no page can prevent); the desktop app also takes Ctrl+N.
const NEW_CHAT: KeyCombo = { key: 'o', mod: true, shift: true };

/** Every app shortcut, for the handler below and the list in Settings. */
export function appShortcuts(desktop: boolean): AppShortcut[] {
  return [
    { id: 'palette', combos: [{ key: 'k', mod: true }], description: 'Open the command palette' },
    {
      id: 'new-chat',
      combos: desktop ? [NEW_CHAT, { key: 'n', mod: true }] : [NEW_CHAT],
      description: 'Start a new chat',
    },
    {
      id: 'search',
      combos: [{ key: 'f', mod: true, shift: true }],
      description: 'Search conversations',
    },
    { id: 'composer', combos: [{ key: 'l', mod: true, shift: true }], description: 'Focus the message box' },
    { id: 'settings', combos: [{ key: ',', mod: true }], description: 'Open Settings' },
    {
      id: 'escape',
      combos: [{ key: 'escape' }],
      description: 'Close the open panel, menu, card or dialog',
    },
  ];
}

/** How a shortcut is written here, e.g. "Ctrl+Shift+O or Ctrl+N". */
export function shortcutLabel(s: AppShortcut): string {
  return s.combos.map(comboLabel).join(' or ');
}

/**
 * Hook points in other views, found by test id so no view depends on this one: the
 * conversation list's search box (falling back to its first item, then "New chat"), the
 * composer. Anything closable by Esc marks its close button with `data-esc-close`.
 */
const SEARCH_TARGETS = [
  '[data-testid="conversation-search"]',
  '[data-testid^="conversation-item-"] button',
  '[data-testid="new-chat"]',
];
const COMPOSER = '[data-testid="chat-input"]';

/** The app's keyboard shortcuts (see appShortcuts), mounted once in the shell. */
export function useAppShortcuts(actions: AppShortcutActions): void {
  const latest = useRef(actions);
  useEffect(() => {
    latest.current = actions;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const a = latest.current;
      const hit = appShortcuts(a.desktop).find((s) => s.combos.some((c) => matches(e, c)));
      if (!hit) return;
      if (hit.id === 'escape') {
        // Something focused already handled it (a menu, a field that reverts): leave it at that.
        if (e.defaultPrevented || document.querySelector('dialog[open]')) return;
        if (closeTopmost()) e.preventDefault();
        return;
      }
      // A modal dialog (the palette itself) owns the keyboard while open.
      if (document.querySelector('dialog[open]')) return;
      e.preventDefault();
      run(hit.id, a);
    };
    // Bubble phase on window: a control that handles a key itself (and prevents it) wins.
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

function run(id: Exclude<ShortcutId, 'escape'>, a: AppShortcutActions): void {
  switch (id) {
    case 'palette':
      a.openPalette();
      return;
    case 'settings':
      a.setView('settings');
      return;
    case 'new-chat':
      a.setView('chat');
      showTarget({ view: 'chat', newChat: true });
      focusWhenShown([COMPOSER]);
      return;
    case 'search':
      a.setView('chat');
      focusWhenShown(SEARCH_TARGETS);
      return;
    case 'composer':
      a.setView('chat');
      focusWhenShown([COMPOSER]);
      return;
  }
}

/** Focus the first visible match once the view switch has rendered (a few frames at most). */
function focusWhenShown(selectors: string[], frames = 10): void {
  requestAnimationFrame(() => {
    for (const sel of selectors) {
      const el = [...document.querySelectorAll<HTMLElement>(sel)].find(visible);
      if (el) {
        el.focus();
        return;
      }
    }
    if (frames > 0) focusWhenShown(selectors, frames - 1);
  });
}

/** Click the close button of the last-rendered open panel, menu or card; false if none. */
function closeTopmost(): boolean {
  const open = [...document.querySelectorAll<HTMLElement>('[data-esc-close]')].filter(visible);
  const last = open.at(-1);
  if (!last) return false;
  last.click();
  return true;
}

function visible(el: HTMLElement): boolean {
  return el.getClientRects().length > 0 && !(el as HTMLButtonElement).disabled;
}
