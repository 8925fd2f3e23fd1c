/** One allowlist entry, parsed: a host (lower case), whether subdomains match, and a port or any. */
interface HostPattern {
  host: string;
  subdomains: boolean;
  port?: number;
}

/**
 * The hosts a sandboxed server may reach (see networkHostSchema): `name`, `*.name` (its
 * subdomains, not the name itself) or an IP literal, each with an optional `:port`. Matching is
 * by the name the server asked the proxy for, before any lookup: the proxy connects to exactly
 * that name, so what was checked is what is reached.
 */
export class NetworkAllowlist {
  private readonly patterns: HostPattern[];

  constructor(readonly entries: readonly string[]) {
    this.patterns = entries.map(parseEntry);
  }

  /** Whether `host:port` may be reached. */
  allows(host: string, port: number): boolean {
    const name = normalHost(host);
    return this.patterns.some(
      (p) =>
        (p.port === undefined || p.port === port) &&
        (p.subdomains ? name.endsWith(`.${p.host}`) : name === p.host),
    );
  }
}

/** `host:port` of a CONNECT target or URL authority; undefined when it is not one. */
export function splitAuthority(
  authority: string,
  defaultPort?: number,
): { host: string; port: number } | undefined {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]\s/]+)(?::(\d{1,5}))?$/.exec(authority);
  if (!m?.[1]) return undefined;
  const port = m[2] ? Number(m[2]) : defaultPort;
  if (port === undefined || port < 1 || port > 65535) return undefined;
  return { host: normalHost(m[1]), port };
}

function parseEntry(entry: string): HostPattern {
  const subdomains = entry.startsWith('*.');
  const rest = subdomains ? entry.slice(2) : entry;
  const split = splitAuthority(rest, 0);
  if (!split) throw new Error(`not a host: ${JSON.stringify(entry)}`);
  return { host: split.host, subdomains, ...(split.port ? { port: split.port } : {}) };
}

/** Lower case, brackets off an IPv6 literal, no trailing dot. */
function normalHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.$/, '');
}
