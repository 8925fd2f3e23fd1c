import { isStdioConfig, type ServerConfig } from '../../../shared/domain/server-config.js';

/**
 * The name an imported server is saved under, and what makes two servers the same one. Names
 * double as ids here, so a name that is taken or not valid for us gets a plain variant.
 */

const MAX_NAME = 64;

/** A valid server name made of `raw` (characters we do not allow become "-"). */
export function validName(raw: string): string {
  const cleaned = raw
    .replace(/[^A-Za-z0-9 _.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, MAX_NAME)
    .trim();
  return cleaned || 'server';
}

/** `name`, or `name-<host>`, `name-<host>-2`… when taken; always valid and at most 64 characters. */
export function freeName(name: string, hostId: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  const withHost = (suffix: string) => `${name.slice(0, MAX_NAME - suffix.length).trimEnd()}${suffix}`;
  let candidate = withHost(`-${hostId}`);
  for (let i = 2; taken.has(candidate); i++) candidate = withHost(`-${hostId}-${i}`);
  return candidate;
}

/** What makes two entries launch the same server: the command line, or the URL. */
export function launchIdentity(config: ServerConfig): { kind: 'same-command' | 'same-url'; key: string } {
  if (isStdioConfig(config))
    return { kind: 'same-command', key: JSON.stringify([config.command, ...(config.args ?? [])]) };
  return { kind: 'same-url', key: config.url.replace(/\/+$/, '') };
}
