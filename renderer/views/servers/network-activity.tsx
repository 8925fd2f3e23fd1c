import type { NetworkActivity } from '../../../shared/domain/server-state.js';

/**
 * A sandboxed server's network rule and every destination it tried under it, allowed or
 * refused (Servers › Info). The host records them at its proxy; nothing here is guessed.
 */
export function NetworkActivityPanel({ network }: { network: NetworkActivity }) {
  return (
    <section className="network-activity" aria-label="Network" data-testid="server-network">
      <h3>Network</h3>
      <p className="muted" data-testid="server-network-rule">
        {network.rule === 'none'
          ? 'No network: it runs in its own empty network namespace.'
          : `Only these hosts, through MCP Desk’s proxy: ${network.hosts.join(', ') || 'none'}.`}
      </p>
      {network.destinations.length === 0 ? (
        <p className="muted">It has tried to reach nothing through the proxy yet.</p>
      ) : (
        <table className="network-destinations">
          <thead>
            <tr>
              <th scope="col">Destination</th>
              <th scope="col">Verdict</th>
              <th scope="col">Tries</th>
              <th scope="col">Last</th>
            </tr>
          </thead>
          <tbody>
            {network.destinations.map((d) => (
              <tr
                key={`${d.host}:${d.port}`}
                data-testid="server-network-destination"
                data-destination={`${d.host}:${d.port}`}
                data-allowed={d.allowed ? 'yes' : 'no'}
              >
                <td className="mono">
                  {d.host}:{d.port}
                </td>
                <td>
                  <span className={d.allowed ? 'badge ok' : 'badge danger'}>
                    {d.allowed ? 'allowed' : 'refused'}
                  </span>
                </td>
                <td>{d.count}</td>
                <td>{new Date(d.lastAt).toLocaleTimeString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
