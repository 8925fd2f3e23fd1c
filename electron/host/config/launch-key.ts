import { createHash } from 'node:crypto';
import { isStdioConfig, type ServerConfig } from '../../../shared/domain/server-config.js';

/**
 * A stable hash of everything that decides what runs or where we connect, before
 * expansion (so a secret's value never feeds an id). Used for the era-verdict cache and
 * for trust: a changed command is a different server and is asked about again.
 */
export function launchKey(config: ServerConfig): string {
  // `sandbox` and `network` join the hash only when set, so every existing (unsandboxed) key stays the same.
  const launch = isStdioConfig(config)
    ? {
        command: config.command,
        args: config.args ?? [],
        env: sortKeys(config.env),
        cwd: config.cwd ?? null,
        ...(config.sandbox ? { sandbox: true } : {}),
        ...(config.network !== undefined ? { network: config.network } : {}),
      }
    : { url: config.url, type: config.type ?? null, headers: sortKeys(config.headers) };
  return createHash('sha256').update(JSON.stringify(launch)).digest('hex').slice(0, 32);
}

function sortKeys(map: Record<string, string> | undefined): [string, string][] {
  return Object.entries(map ?? {}).sort(([a], [b]) => a.localeCompare(b));
}
