/**
 * A scripted "person with a browser" for OAuth tests: follows an authorization URL through
 * oidc-provider's dev login and consent pages with fetch and a cookie jar, up to the
 * loopback redirect, which it then visits (delivering the code to the app) unless told to
 * tamper with it first.
 */

export interface ScriptedSignIn {
  /** The loopback callback URL the authorization server redirected to (code, state, iss). */
  callbackUrl: string;
  /** What the app's loopback page answered. */
  callbackStatus: number;
  callbackBody: string;
}

export interface ScriptedBrowserOptions {
  login?: string;
  /** Change the callback URL before visiting it (a forged state, an injected error). */
  tamper?: (url: URL) => URL;
}

function isLoopbackCallback(url: URL, issuer: URL): boolean {
  return url.hostname === '127.0.0.1' && url.pathname === '/callback' && url.origin !== issuer.origin;
}

function formOf(html: string): { action: string; fields: Record<string, string> } | undefined {
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const fields: Record<string, string> = {};
  for (const m of form[2].matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]+)"/.exec(m[0])?.[1];
    if (name) fields[name] = /value="([^"]*)"/.exec(m[0])?.[1] ?? '';
  }
  return { action: form[1].replace(/&amp;/g, '&'), fields };
}

/** Sign in at the authorization server as `login` and consent; returns what the callback got. */
export async function scriptedSignIn(
  authorizationUrl: string,
  opts: ScriptedBrowserOptions = {},
): Promise<ScriptedSignIn> {
  const issuer = new URL(authorizationUrl);
  const jar = new Map<string, string>();
  let url = new URL(authorizationUrl);
  let method = 'GET';
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 30; step++) {
    if (isLoopbackCallback(url, issuer)) {
      const target = opts.tamper ? opts.tamper(new URL(url)) : url;
      const res = await fetch(target);
      return { callbackUrl: url.href, callbackStatus: res.status, callbackBody: await res.text() };
    }
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, {
      method,
      headers,
      redirect: 'manual',
      ...(body ? { body: body.toString() } : {}),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url);
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    const form = formOf(html);
    if (res.status !== 200 || !form)
      throw new Error(
        `the authorization server answered ${res.status} with no form to fill: ${html.slice(0, 300)}`,
      );
    const fields = { ...form.fields };
    if ('login' in fields) fields.login = opts.login ?? 'alice';
    if ('password' in fields) fields.password = 'any password';
    url = new URL(form.action, url);
    method = 'POST';
    body = new URLSearchParams(fields);
  }
  throw new Error('the sign-in did not reach the callback in 30 steps');
}
