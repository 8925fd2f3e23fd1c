// A stand-in host for running the hostile view without the app (tests/integration/
// hostile-app-fixture.test.ts): a top page on one loopback origin holding a fake bridge token, a
// sandbox proxy page on another that relays messages to the view in an inner frame, and a top
// script answering the View side of MCP Apps the way the host should (same-server, visibility and
// rate-limit refusals; malformed messages logged to `window.stubLog`). It proves the fixture's
// attempts run and record; the real host's enforcement is the e2e's to prove.

/** What the stub top page needs to know. */
export interface StubParentOptions {
  /** The proxy page on the sandbox origin. */
  proxyUrl: string;
  sandboxOrigin: string;
  /** A fake bridge token, kept where the app keeps the real one (sessionStorage) and in the DOM. */
  token: string;
  /** Sent to the view as the tool's input. */
  toolInput: Record<string, unknown>;
}

/** The stub top page: `stubLog` records what it ignored. */
export function stubParentPage(o: StubParentOptions): string {
  const config = JSON.stringify({ sandboxOrigin: o.sandboxOrigin, toolInput: o.toolInput });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stub host</title></head>
<body><p id="secret">${o.token}</p>
<iframe id="view" title="hostile view" sandbox="allow-scripts allow-same-origin" src="${o.proxyUrl}"
  style="width:600px;height:400px"></iframe>
<script>
const CONFIG = ${config};
sessionStorage.setItem('mcp-desk.session-token', ${JSON.stringify(o.token)});
history.replaceState(null, '', location.pathname);
const frame = document.getElementById('view');
const log = (window.stubLog = []);
let tokens = 20;
const send = (m) => frame.contentWindow.postMessage(m, CONFIG.sandboxOrigin);
window.addEventListener('message', (e) => {
  if (e.source !== frame.contentWindow || e.origin !== CONFIG.sandboxOrigin) {
    log.push('ignored: not from the view frame');
    return;
  }
  const m = e.data;
  const isObject = m !== null && typeof m === 'object' && !Array.isArray(m);
  if (!isObject || m.jsonrpc !== '2.0' || (typeof m.method !== 'string' && m.id === undefined)) {
    log.push('malformed: ' + String(JSON.stringify(m)).slice(0, 60));
    return;
  }
  if (m.id !== undefined && String(m.id).length > 256) {
    log.push('malformed: id too long');
    return;
  }
  if (m.method && m.method.startsWith('ui/notifications/sandbox-')) {
    log.push('malformed: sandbox message from the view');
    return;
  }
  const reply = (body) => send(Object.assign({ jsonrpc: '2.0', id: m.id }, body));
  const refuse = (code, message) => reply({ error: { code: -32000, message, data: { code } } });
  switch (m.method) {
    case 'ui/initialize':
      reply({ result: { protocolVersion: '2026-01-26', hostInfo: { name: 'stub', version: '0' },
        hostCapabilities: { serverTools: {} }, hostContext: { theme: 'light', displayMode: 'inline' } } });
      return;
    case 'ui/notifications/initialized':
      send({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: CONFIG.toolInput } });
      send({ jsonrpc: '2.0', method: 'ui/notifications/tool-result',
        params: { content: [{ type: 'text', text: 'hostile view ready' }] } });
      return;
    case 'ping':
      reply({ result: {} });
      return;
    case 'tools/call': {
      const name = m.params && m.params.name;
      if (typeof name !== 'string') return reply({ error: { code: -32602, message: 'Invalid params' } });
      if (name !== 'app-only') return refuse('app_call_refused', 'the view may not call "' + name + '"');
      if (tokens <= 0) return refuse('rate_limited', 'too many calls from this view');
      tokens -= 1;
      return reply({ result: { content: [{ type: 'text', text: 'ok' }] } });
    }
    default:
      if (m.id !== undefined) reply({ error: { code: -32601, message: 'Method not found' } });
      else log.push('ignored notification ' + m.method);
  }
});
</script></body></html>`;
}

/**
 * The stub sandbox proxy: loads the view in an inner frame of its own origin and relays messages
 * both ways, except `ui/notifications/sandbox-*` from the view (the spec's rule).
 */
export function stubProxyPage(viewUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stub proxy</title></head>
<body style="margin:0"><iframe id="view" title="view" sandbox="allow-scripts allow-same-origin"
  src="${viewUrl}" style="border:0;width:100%;height:390px"></iframe>
<script>
const inner = document.getElementById('view');
window.addEventListener('message', (e) => {
  if (e.source === window.parent) inner.contentWindow.postMessage(e.data, '*');
  else if (e.source === inner.contentWindow) {
    const m = e.data;
    if (m && typeof m.method === 'string' && m.method.startsWith('ui/notifications/sandbox-')) return;
    window.parent.postMessage(m, '*');
  }
});
</script></body></html>`;
}
