import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';

const rendererRoot = fileURLToPath(new URL('./renderer/', import.meta.url));
const rendererOutDir = fileURLToPath(new URL('./out/renderer/', import.meta.url));

/** Vite settings for the renderer, used by scripts/build.mjs and by `npx vite` during UI work. */
export const rendererViteConfig: UserConfig = {
  root: rendererRoot,
  // Relative asset URLs: Electron loads the page from file://, browser mode serves it from /.
  base: './',
  plugins: [react()],
  build: {
    outDir: rendererOutDir,
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2023',
  },
  // The renderer must never see host environment variables through import.meta.env.
  envPrefix: 'MCP_DESK_PUBLIC_',
  clearScreen: false,
};

// Vite's config loader only reads the default export; this is the one allowed exception.
export default defineConfig(rendererViteConfig);
