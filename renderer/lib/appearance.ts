import type { AppSettings } from '../../shared/domain/app-settings.js';

type Appearance = Pick<AppSettings, 'theme' | 'fontSize' | 'density'>;

// The last appearance applied, so a reload paints in it before the host has answered.
const CACHE_KEY = 'mcp-desk.appearance';

/**
 * Put theme, font size and density on <html> (base.css reads them): `data-theme` only when a
 * theme is forced, so "system" keeps following the OS; the font size as a CSS variable.
 */
export function applyAppearance(a: Appearance): void {
  const root = document.documentElement;
  if (a.theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = a.theme;
  root.dataset.density = a.density;
  root.style.setProperty('--font-size', `${a.fontSize}px`);
  try {
    localStorage.setItem(CACHE_KEY, JSON.stringify(a));
  } catch {
    // Storage may be off (private windows): the host's answer still applies, a frame later.
  }
}

/** Apply the appearance the previous page load left, if any (before the first render). */
export function restoreAppearance(): void {
  try {
    const raw = localStorage.getItem(CACHE_KEY);
    if (!raw) return;
    const a = JSON.parse(raw) as Partial<Appearance>;
    if (
      (a.theme === 'system' || a.theme === 'light' || a.theme === 'dark') &&
      typeof a.fontSize === 'number' &&
      (a.density === 'compact' || a.density === 'comfortable')
    )
      applyAppearance({ theme: a.theme, fontSize: a.fontSize, density: a.density });
  } catch {
    // A stale or foreign value is ignored; the host's settings arrive right after.
  }
}
