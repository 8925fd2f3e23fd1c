/**
 * The MCP Apps sandbox proxy (ext-apps 2026-01-26, "Sandbox proxy"): runs in the outer iframe,
 * on the view's own origin (no other view shares it, nor the app), under the view's CSP (a
 * response header of this page). It builds the inner iframe that holds the view, writes the
 * view's HTML into it once the app sends it, and relays every other message both ways, except
 * the view's `ui/notifications/sandbox-*` (the spec keeps those to the host and the proxy). It
 * never sends anything of its own but the one ready notification, and it imports nothing: this
 * file is the whole proxy.
 */

const PROXY_READY = 'ui/notifications/sandbox-proxy-ready';
const RESOURCE_READY = 'ui/notifications/sandbox-resource-ready';
/** Messages the spec reserves for the host and the proxy: never relayed from the view. */
const SANDBOX_METHODS = 'ui/notifications/sandbox-';
/** Never allow-top-navigation, allow-popups or allow-downloads: the view stays in its box. */
const INNER_SANDBOX = 'allow-scripts allow-same-origin allow-forms';
/** A view takes the keyboard focus only after the person interacts with it. */
const NO_FOCUS_STEALING = "focus-without-user-activation 'none'";
const FEATURES: Record<string, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/** The app's origin, written into the page by the server that served it (never from the URL). */
const hostOrigin = document.documentElement.dataset.hostOrigin ?? '';
const ownOrigin = window.location.origin;

interface ResourceReady {
  html: string;
  permissions?: Record<string, unknown>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The resource-ready params, or undefined when they are not what the spec says. */
function resourceReady(data: unknown): ResourceReady | undefined {
  if (!isRecord(data) || data.method !== RESOURCE_READY || !isRecord(data.params)) return undefined;
  const { html, permissions } = data.params;
  if (typeof html !== 'string') return undefined;
  return { html, ...(isRecord(permissions) ? { permissions } : {}) };
}

/** True for a message only the proxy may send (`ui/notifications/sandbox-*`). */
function isSandboxMessage(data: unknown): boolean {
  return isRecord(data) && typeof data.method === 'string' && data.method.startsWith(SANDBOX_METHODS);
}

/** The `allow` attribute for the permissions the app granted (it sends only granted ones). */
function allowFor(permissions: Record<string, unknown> | undefined): string {
  if (!permissions) return '';
  return Object.keys(FEATURES)
    .filter((p) => permissions[p] !== undefined && permissions[p] !== false && permissions[p] !== null)
    .map((p) => FEATURES[p])
    .join('; ');
}

let inner: HTMLIFrameElement | null = null;

/**
 * Build the inner frame and write the view into it. document.write keeps the frame on this
 * origin (srcdoc would make it opaque, which breaks WebGL) and under this page's CSP. Only
 * the first resource counts: a second one would replace a running view behind the app's back.
 */
function load(ready: ResourceReady): void {
  if (inner) return;
  const frame = document.createElement('iframe');
  frame.id = 'view';
  frame.title = 'Interactive view';
  frame.setAttribute('sandbox', INNER_SANDBOX);
  // The page's own Permissions-Policy header already denies it; said again where the frame is made.
  frame.setAttribute('allow', [NO_FOCUS_STEALING, allowFor(ready.permissions)].filter(Boolean).join('; '));
  document.body.appendChild(frame);
  inner = frame;
  const doc = frame.contentDocument;
  if (!doc) return;
  doc.open();
  doc.write(ready.html);
  doc.close();
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (event.source === window.parent) {
    if (event.origin !== hostOrigin) return;
    const ready = resourceReady(event.data);
    if (ready) return load(ready);
    // The view is on this origin too (the frame is same-origin with the proxy by design).
    inner?.contentWindow?.postMessage(event.data, ownOrigin);
    return;
  }
  if (
    inner &&
    event.source === inner.contentWindow &&
    event.origin === ownOrigin &&
    !isSandboxMessage(event.data)
  )
    window.parent.postMessage(event.data, hostOrigin);
});

if (hostOrigin && window.parent !== window)
  window.parent.postMessage({ jsonrpc: '2.0', method: PROXY_READY, params: {} }, hostOrigin);
