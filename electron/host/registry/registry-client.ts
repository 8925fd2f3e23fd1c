import type { RegistryEntry, RegistryPage } from '../../../shared/domain/registry.js';
import { registryUrlProblem } from '../../../shared/domain/app-settings.js';
import { HostFailure } from '../util/errors.js';

/**
 * A reader of an MCP registry's REST API (the official registry's shape, which sub-registries
 * share): `GET /v0/servers?search=&limit=&cursor=` and
 * `GET /v0/servers/{name}/versions/{version|latest}`. Reads need no auth. Every answer is
 * bounded in time and size, and every failure says which of "cannot reach", "answered an
 * error" or "answered something else" it was.
 */

/** Options of a RegistryClient (tests shorten them). */
export interface RegistryClientOptions {
  timeoutMs?: number;
  /** Largest answer read, in bytes. */
  maxBytes?: number;
  fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

/** Reads one registry; the base URL is checked on every call (it is a setting and may change). */
export class RegistryClient {
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: RegistryClientOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** One page of servers matching `search`. */
  async search(
    baseUrl: string,
    query: { search?: string; cursor?: string; limit?: number },
  ): Promise<RegistryPage> {
    const url = endpoint(baseUrl, '/v0/servers');
    if (query.search) url.searchParams.set('search', query.search);
    if (query.cursor) url.searchParams.set('cursor', query.cursor);
    url.searchParams.set('limit', String(query.limit ?? 30));
    const body = asObject(await this.get(url), 'the server list');
    if (!Array.isArray(body.servers)) throw notRegistry('the server list has no "servers" array');
    const entries: RegistryEntry[] = [];
    for (const item of body.servers.slice(0, 100)) {
      const entry = summarise(item);
      if (entry) entries.push(entry);
    }
    const meta = body.metadata !== null && typeof body.metadata === 'object' ? body.metadata : {};
    const m = meta as Record<string, unknown>;
    const next = typeof m.nextCursor === 'string' ? m.nextCursor : m.next_cursor;
    return {
      entries,
      registryUrl: publicBase(baseUrl),
      ...(typeof next === 'string' && next ? { nextCursor: next.slice(0, 1000) } : {}),
    };
  }

  /** The server.json of one server (latest, or a given version). */
  async serverJson(baseUrl: string, name: string, version?: string): Promise<unknown> {
    const url = endpoint(
      baseUrl,
      `/v0/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version ?? 'latest')}`,
    );
    const body = asObject(await this.get(url), 'the server');
    // The API wraps it as { server, _meta }; a bare server.json is taken as it is.
    return body.server !== null && typeof body.server === 'object' ? body.server : body;
  }

  private async get(url: URL): Promise<unknown> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'follow',
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new HostFailure(
        'registry_unreachable',
        timedOut
          ? `The registry at ${url.origin} did not answer within ${Math.round(this.timeoutMs / 1000)} s`
          : `The registry at ${url.origin} cannot be reached — check the address and your connection`,
        { technical: causeText(error) },
      );
    }
    const text = await readCapped(response, this.maxBytes, url.origin);
    if (response.status === 404)
      throw new HostFailure('registry_error', `The registry has no such server (404 at ${url.pathname})`);
    if (!response.ok)
      throw new HostFailure(
        'registry_error',
        `The registry answered ${response.status} ${response.statusText}`.trim(),
        { technical: text.slice(0, 300) },
      );
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw notRegistry(
        `it answered ${response.headers.get('content-type') ?? 'something'} that is not JSON`,
      );
    }
  }
}

/** `base` + `path`, keeping a base path (a sub-registry under /mcp-registry). */
function endpoint(baseUrl: string, path: string): URL {
  const problem = registryUrlProblem(baseUrl);
  if (problem)
    throw new HostFailure('invalid_settings', `The registry URL "${baseUrl}" is refused: ${problem}`);
  const base = new URL(baseUrl);
  return new URL(`${base.origin}${base.pathname.replace(/\/+$/, '')}${path}`);
}

function publicBase(baseUrl: string): string {
  const u = new URL(baseUrl);
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

async function readCapped(response: Response, maxBytes: number, origin: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooBig(origin, maxBytes);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooBig(origin, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooBig(origin: string, maxBytes: number): HostFailure {
  return new HostFailure(
    'registry_error',
    `The registry at ${origin} sent more than ${Math.round(maxBytes / 1024 / 1024)} MB; stopped reading`,
  );
}

function notRegistry(why: string): HostFailure {
  return new HostFailure('registry_error', `That address does not look like an MCP registry: ${why}`);
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw notRegistry(`${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

function causeText(error: unknown): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  return [e.message, e.cause?.code, e.cause?.message].filter(Boolean).join(': ').slice(0, 300);
}

/** One listing item as the renderer shows it; undefined for an item without the basics. */
function summarise(item: unknown): RegistryEntry | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const wrapper = item as Record<string, unknown>;
  const s = (wrapper.server ?? wrapper) as Record<string, unknown>;
  if (typeof s.name !== 'string' || typeof s.version !== 'string') return undefined;
  const str = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : undefined);
  const kinds = (list: unknown, key: string) =>
    Array.isArray(list)
      ? [...new Set(list.map((x) => str((x as Record<string, unknown> | null)?.[key], 40)).filter(Boolean))]
      : [];
  const meta = (wrapper._meta ?? {}) as Record<string, unknown>;
  const official = (meta['io.modelcontextprotocol.registry/official'] ?? {}) as Record<string, unknown>;
  const repo = (s.repository ?? {}) as Record<string, unknown>;
  const entry: RegistryEntry = {
    name: s.name.slice(0, 200),
    description: str(s.description, 500) ?? '',
    version: s.version.slice(0, 255),
    packageTypes: kinds(s.packages, 'registryType') as string[],
    remoteTypes: kinds(s.remotes, 'type') as string[],
  };
  const title = str(s.title, 200);
  if (title) entry.title = title;
  const status = str(official.status, 40);
  if (status) entry.status = status;
  const repositoryUrl = str(repo.url, 500);
  if (repositoryUrl && /^https?:\/\//i.test(repositoryUrl)) entry.repositoryUrl = repositoryUrl;
  return entry;
}
