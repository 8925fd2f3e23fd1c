/**
 * The person at the browser, for a command line with nobody there: it opens the authorization
 * URL itself (the conformance authorization servers approve at once and redirect), stops at
 * the redirect back to our loopback callback, checks `state`, and keeps the callback's query
 * for McpHost.finishAuth, which exchanges the code and validates `iss` (RFC 9207). Nothing
 * listens on the callback port: the code is read from the Location header, so it never
 * travels further than this process.
 */
export class HeadlessAuthorizer {
  /** The redirect URI we register and send; loopback, as for a native app (RFC 8252). */
  readonly redirectUrl: string;
  private readonly pending = new Map<string, URLSearchParams>();
  private readonly failures = new Map<string, string>();
  /** Authorization requests made per server, for the retry cap of the caller. */
  private readonly rounds = new Map<string, number>();

  constructor(
    private readonly log: (text: string) => void,
    port = 33418,
  ) {
    this.redirectUrl = `http://127.0.0.1:${port}/callback`;
  }

  /**
   * Follows `authorizationUrl` for `serverId` up to the redirect to our callback. `expectedState`
   * is the state the provider put on the URL; a callback without it is refused (CSRF).
   */
  async follow(serverId: string, authorizationUrl: URL, expectedState: string | undefined): Promise<void> {
    this.rounds.set(serverId, (this.rounds.get(serverId) ?? 0) + 1);
    this.pending.delete(serverId);
    this.failures.delete(serverId);
    try {
      const callback = await this.walk(authorizationUrl);
      const params = callback.searchParams;
      if (params.has('error')) {
        // The description is the authorization server's text and may be attacker-controlled
        // (mix-up): report only the error code.
        throw new Error(`the authorization server refused: ${params.get('error') ?? ''}`);
      }
      if (!expectedState || params.get('state') !== expectedState)
        throw new Error('the callback state does not match the request (possible CSRF); ignored');
      this.pending.set(serverId, params);
      this.log(`authorization approved for ${serverId}; exchanging the code`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.failures.set(serverId, message);
      this.log(`authorization failed for ${serverId}: ${message}`);
    }
  }

  /** The callback query of the last approved authorization for `serverId`, once. */
  takeCallback(serverId: string): URLSearchParams | undefined {
    const params = this.pending.get(serverId);
    this.pending.delete(serverId);
    return params;
  }

  /** Why the last authorization for `serverId` failed, if it did. */
  failure(serverId: string): string | undefined {
    return this.failures.get(serverId);
  }

  /** How many authorization requests were made for `serverId`. */
  roundsFor(serverId: string): number {
    return this.rounds.get(serverId) ?? 0;
  }

  private async walk(start: URL): Promise<URL> {
    let url = start;
    // An authorization server may bounce through its own pages before redirecting back.
    for (let hop = 0; hop < 5; hop++) {
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        throw new Error(
          `the authorization endpoint answered HTTP ${response.status} without redirecting back`,
        );
      }
      const next = new URL(location, url);
      if (this.isCallback(next)) return next;
      if (next.origin !== start.origin)
        throw new Error(`the authorization server redirected to another origin (${next.origin})`);
      url = next;
    }
    throw new Error('too many redirects at the authorization server');
  }

  private isCallback(url: URL): boolean {
    const ours = new URL(this.redirectUrl);
    return url.origin === ours.origin && url.pathname === ours.pathname;
  }
}
