import type {
  McpUiDisplayMode,
  McpUiHostContext,
  McpUiStyles,
} from '@modelcontextprotocol/ext-apps/app-bridge';

/** Display modes this host offers a view. */
export const HOST_DISPLAY_MODES: McpUiDisplayMode[] = ['inline', 'fullscreen', 'pip'];

/** Our theme tokens (renderer/styles/base.css) behind each of the spec's colour variables. */
const COLOR_TOKENS: Partial<Record<keyof McpUiStyles, string>> = {
  '--color-background-primary': '--surface',
  '--color-background-secondary': '--bg',
  '--color-background-tertiary': '--accent-soft',
  '--color-background-inverse': '--text',
  '--color-background-info': '--info-soft',
  '--color-background-danger': '--danger-soft',
  '--color-background-success': '--ok-soft',
  '--color-background-warning': '--warn-soft',
  '--color-text-primary': '--text',
  '--color-text-secondary': '--muted',
  '--color-text-tertiary': '--muted',
  '--color-text-inverse': '--surface',
  '--color-text-info': '--info',
  '--color-text-danger': '--danger',
  '--color-text-success': '--ok',
  '--color-text-warning': '--warn',
  '--color-border-primary': '--border',
  '--color-border-secondary': '--border',
  '--color-border-info': '--info',
  '--color-border-danger': '--danger',
  '--color-border-success': '--ok',
  '--color-border-warning': '--warn',
  '--color-ring-primary': '--accent',
  '--color-ring-info': '--info',
  '--color-ring-danger': '--danger',
  '--color-ring-success': '--ok',
  '--color-ring-warning': '--warn',
};

/** The theme in effect: the person's choice on <html>, else the system's. */
export function currentTheme(): 'light' | 'dark' {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/**
 * Our tokens as the spec's variables, resolved to plain colours: the tokens are written with
 * light-dark(), which means nothing inside the view's document, so each is read back through
 * a probe element's computed colour.
 */
export function themeVariables(): Partial<McpUiStyles> {
  const probe = document.createElement('span');
  probe.style.display = 'none';
  document.body.appendChild(probe);
  const vars: Partial<McpUiStyles> = {};
  try {
    for (const [key, token] of Object.entries(COLOR_TOKENS) as [keyof McpUiStyles, string][]) {
      probe.style.color = `var(${token})`;
      vars[key] = getComputedStyle(probe).color;
    }
  } finally {
    probe.remove();
  }
  const root = getComputedStyle(document.documentElement);
  const token = (name: string) => root.getPropertyValue(name).trim();
  Object.assign(vars, {
    '--font-sans': token('--sans'),
    '--font-mono': token('--mono'),
    '--font-text-md-size': token('--font-size'),
    '--border-radius-md': token('--radius'),
    '--border-radius-sm': '4px',
    '--border-radius-lg': '12px',
    '--border-width-regular': '1px',
  } satisfies Partial<McpUiStyles>);
  return vars;
}

/** Everything the view is told about where it runs (`ui/initialize` and later changes). */
export function hostContext(opts: {
  displayMode: McpUiDisplayMode;
  width: number;
  maxHeight: number;
}): McpUiHostContext {
  return {
    theme: currentTheme(),
    styles: { variables: themeVariables() as McpUiStyles },
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: 'desktop',
    userAgent: 'MCP Desk',
    displayMode: opts.displayMode,
    availableDisplayModes: HOST_DISPLAY_MODES,
    containerDimensions: { width: Math.round(opts.width), maxHeight: Math.round(opts.maxHeight) },
    deviceCapabilities: {
      hover: window.matchMedia('(hover: hover)').matches,
      touch: navigator.maxTouchPoints > 0,
    },
  };
}

/** Calls `listener` when the theme in effect may have changed (the person's choice or the system's). */
export function onThemeChange(listener: () => void): () => void {
  const observer = new MutationObserver(listener);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  const media = window.matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', listener);
  return () => {
    observer.disconnect();
    media.removeEventListener('change', listener);
  };
}
