import { useAppearance } from '../hooks/use-app-settings.js';

/** Renders nothing: keeps this window's theme, font size and density in step with Settings. */
export function AppearanceSync() {
  useAppearance();
  return null;
}
