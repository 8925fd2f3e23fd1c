import type { ServerConfig } from '../../../shared/domain/server-config.js';
import { DEEP_LINK_SCHEME } from '../../../shared/domain/registry.js';
import { parseEntry } from '../config/config-document.js';
import { HostFailure } from '../util/errors.js';

/**
 * `mcp-desk://install?…` links, read strictly: anything not exactly one of the two forms is
 * refused with the reason, before any network or file is touched.
 *   - `name=NAME&config=BASE64URL(JSON of one server entry)`: a whole entry in the link, the
 *     shape Cursor's install links use (standard base64 is accepted too);
 *   - `registry=SERVER_NAME[&version=V]`: a server of the configured registry.
 * A link only ever opens a preview; installing needs the person's confirmation.
 */

/** Longest link read at all. */
export const MAX_LINK_CHARS = 16 * 1024;
/** Longest decoded entry of a `config=` link. */
export const MAX_CONFIG_BYTES = 8 * 1024;

/** What a link asks for. */
export type DeepLink =
  | { kind: 'entry'; name: string; config: ServerConfig }
  | { kind: 'registry'; name: string; version?: string };

const REGISTRY_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const VERSION = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,254}$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

function refuse(message: string): never {
  throw new HostFailure('link_invalid', `This install link cannot be used: ${message}`);
}

/** True for text that is meant as an install link (the CLI's `install` picks its branch by it). */
export function isDeepLink(text: string): boolean {
  return text.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`);
}

/** Parse a link; throws link_invalid naming what is wrong. */
export function parseDeepLink(text: string): DeepLink {
  if (text.length > MAX_LINK_CHARS) refuse(`it is longer than ${MAX_LINK_CHARS} characters`);
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    refuse('it is not a URL');
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:`) refuse(`it must start with ${DEEP_LINK_SCHEME}://`);
  if (url.host !== 'install' || (url.pathname !== '' && url.pathname !== '/'))
    refuse(`only ${DEEP_LINK_SCHEME}://install?… links exist`);
  if (url.username || url.password || url.hash) refuse('it carries parts an install link never has');
  const params = new Map<string, string>();
  for (const [key, value] of url.searchParams) {
    if (!['name', 'config', 'registry', 'version'].includes(key))
      refuse(`unknown parameter "${key.slice(0, 40)}"`);
    if (params.has(key)) refuse(`"${key}" is given twice`);
    params.set(key, value);
  }
  const registry = params.get('registry');
  if (registry !== undefined) {
    if (params.has('name') || params.has('config'))
      refuse('"registry" cannot be combined with "name" or "config"');
    if (!REGISTRY_NAME.test(registry) || registry.length > 200)
      refuse('"registry" must be a registry server name like io.github.owner/server');
    const version = params.get('version');
    if (version !== undefined && !VERSION.test(version)) refuse('"version" is not a version');
    return version !== undefined
      ? { kind: 'registry', name: registry, version }
      : { kind: 'registry', name: registry };
  }
  if (params.has('version')) refuse('"version" goes only with "registry"');
  const name = params.get('name');
  const config = params.get('config');
  if (name === undefined || config === undefined) refuse('it needs either name and config, or registry');
  const entry = parseEntry(name, decodeConfig(config));
  if (!entry.ok) refuse(entry.error);
  return { kind: 'entry', name, config: entry.config };
}

/** base64url (or standard base64, whose "+" a query string turns into a space) → one JSON object. */
function decodeConfig(raw: string): unknown {
  const text = raw.replace(/ /g, '+');
  if (text.length > Math.ceil((MAX_CONFIG_BYTES * 4) / 3) + 4)
    refuse(`"config" is larger than ${MAX_CONFIG_BYTES} bytes`);
  if (!BASE64.test(text)) refuse('"config" is not base64');
  const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    refuse('"config" does not decode to text');
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    refuse('"config" is not JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    refuse('"config" must be one server entry (a JSON object)');
  return value;
}
