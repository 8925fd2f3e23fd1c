import { lazy, Suspense, type ReactNode } from 'react';
import type { ViewName } from '../components/nav.js';

// Every view but Chat is its own chunk: the first paint fetches only what Chat needs, and a
// view's code arrives the first time someone opens it (or points at its nav item).
const loaders = {
  requests: () => import('../views/requests/requests-view.js'),
  servers: () => import('../views/servers/servers-view.js'),
  registry: () => import('../views/registry/registry-view.js'),
  tools: () => import('../views/tools/tools-view.js'),
  resources: () => import('../views/resources/resources-view.js'),
  prompts: () => import('../views/prompts/prompts-view.js'),
  roots: () => import('../views/roots/roots-view.js'),
  audit: () => import('../views/audit/audit-view.js'),
  permissions: () => import('../views/permissions/permissions-view.js'),
  settings: () => import('../views/settings/settings-view.js'),
} satisfies Partial<Record<ViewName, () => Promise<unknown>>>;

/** Starts fetching a view's chunk ahead of the click (hover or focus on its nav item). */
export function preloadView(view: ViewName): void {
  if (view in loaders) void loaders[view as keyof typeof loaders]().catch(() => undefined);
}

/** The Requests view, loaded on demand. */
export const RequestsView = lazy(() => loaders.requests().then((m) => ({ default: m.RequestsView })));
/** The Servers view, loaded on demand. */
export const ServersView = lazy(() => loaders.servers().then((m) => ({ default: m.ServersView })));
/** The Registry view (browse an MCP registry), loaded on demand. */
export const RegistryView = lazy(() => loaders.registry().then((m) => ({ default: m.RegistryView })));
/** The Tools view, loaded on demand. */
export const ToolsView = lazy(() => loaders.tools().then((m) => ({ default: m.ToolsView })));
/** The Resources view, loaded on demand. */
export const ResourcesView = lazy(() => loaders.resources().then((m) => ({ default: m.ResourcesView })));
/** The Prompts view, loaded on demand. */
export const PromptsView = lazy(() => loaders.prompts().then((m) => ({ default: m.PromptsView })));
/** The Folders view, loaded on demand. */
export const RootsView = lazy(() => loaders.roots().then((m) => ({ default: m.RootsView })));
/** The Activity view, loaded on demand. */
export const AuditView = lazy(() => loaders.audit().then((m) => ({ default: m.AuditView })));
/** The Permissions view, loaded on demand. */
export const PermissionsView = lazy(() =>
  loaders.permissions().then((m) => ({ default: m.PermissionsView })),
);

/** The Settings view, loaded on demand. */
export const SettingsView = lazy(() => loaders.settings().then((m) => ({ default: m.SettingsView })));

/** The small placeholder a view shows while its chunk loads (usually for a frame or two). */
export function ViewFallback() {
  return (
    <section className="view" aria-busy="true">
      <p className="muted view-loading" data-testid="view-loading">
        Loading…
      </p>
    </section>
  );
}

/** A lazily loaded view inside its own Suspense boundary, so one slow chunk blanks only its slot. */
export function LazySlot({ children }: { children: ReactNode }) {
  return <Suspense fallback={<ViewFallback />}>{children}</Suspense>;
}
