declare global {
  interface Window {
    /**
     * Installed only by tests (Playwright's addInitScript) to count renders of memoised
     * components; absent in normal use, where noteRender costs one property read.
     */
    __mcpDeskRenderProbe?: (component: string, id: string) => void;
  }
}

/**
 * Tells a test's probe that `component` rendered for `id`, so a test can prove that a
 * streaming token re-renders only the message that changes.
 */
export function noteRender(component: string, id: string): void {
  window.__mcpDeskRenderProbe?.(component, id);
}
