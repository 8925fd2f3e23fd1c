import type { NetworkRule } from '../../../../shared/domain/server-config.js';
import type { NetworkActivity } from '../../../../shared/domain/server-state.js';
import { DestinationLog, NetworkProxy } from './network-proxy.js';
import { networkKind } from './sandbox-launch.js';

/**
 * One server's network rule in force: the proxy its allowlist goes through (started on first
 * need, kept across restarts so the socket path stays) and what it tried, kept across
 * restarts too so Servers Info shows the whole story.
 */
export class NetworkGate {
  private proxy?: Promise<NetworkProxy>;
  private readonly log = new DestinationLog();

  /** `onChange` hears every new destination (the servers list is announced again). */
  constructor(private readonly onChange: () => void) {}

  /** The proxy's socket for an allowlist of `hosts` (started now if it is not running). */
  async socketFor(hosts: readonly string[]): Promise<string> {
    this.proxy ??= NetworkProxy.start(hosts, this.log, this.onChange);
    let proxy: NetworkProxy;
    try {
      proxy = await this.proxy;
    } catch (error) {
      this.proxy = undefined;
      throw error;
    }
    proxy.setHosts(hosts);
    return proxy.socketPath;
  }

  /** The rule and the destinations tried, for the server's summary (undefined for `any`). */
  activity(rule: NetworkRule | undefined): NetworkActivity | undefined {
    const kind = networkKind(rule);
    if (kind === 'any') return undefined;
    const hosts = typeof rule === 'object' ? rule.allow : [];
    return { rule: kind, hosts, destinations: this.log.list() };
  }

  /** Stop the proxy (the server stopped): its tunnels end with it. */
  async close(): Promise<void> {
    const proxy = this.proxy;
    this.proxy = undefined;
    if (proxy) await (await proxy.catch(() => undefined))?.close();
  }
}
