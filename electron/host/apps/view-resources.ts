import { MCP_APP_MIME } from '../../../shared/domain/mcp-apps.js';
import type { ReadResourceResult, ResourceContents } from '../../../shared/domain/mcp-types.js';
import { HostFailure } from '../util/errors.js';

/** A view document as the server gave it, checked and decoded. */
export interface ViewDocument {
  html: string;
  /** The content entry it came from (its `_meta.ui` holds CSP and permissions). */
  content: ResourceContents;
}

/** A view bigger than this is refused: the examples are under 0.5 MB. */
export const MAX_VIEW_BYTES = 8 * 1024 * 1024;
/** Cached documents per host; the oldest goes first. */
const MAX_CACHED = 64;

/** What the cache reads through: the live session's resources/read. */
export type ReadResource = (serverId: string, uri: string) => Promise<ReadResourceResult>;

/**
 * Fetches `ui://` view resources with resources/read (servers may leave them out of
 * resources/list) and caches them per server. An entry belongs to one connection of its
 * server and one version of its resource list: `generation` changes on reconnect and on
 * a resources list change, and an entry of another generation is read again.
 */
export class ViewResources {
  private readonly cache = new Map<string, ViewDocument>();
  private readonly inFlight = new Map<string, Promise<ViewDocument>>();

  constructor(private readonly read: ReadResource) {}

  /** The document for `uri`, from cache when this generation already read it. */
  async get(serverId: string, uri: string, generation: string): Promise<ViewDocument> {
    const key = JSON.stringify([serverId, generation, uri]);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const load = this.load(serverId, uri).then((doc) => {
      this.remember(key, doc);
      return doc;
    });
    this.inFlight.set(key, load);
    try {
      return await load;
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** Forget every document of a server (removed, or its list changed). */
  drop(serverId: string): void {
    for (const key of this.cache.keys())
      if ((JSON.parse(key) as string[])[0] === serverId) this.cache.delete(key);
  }

  /** How many documents are cached (tests, diagnostics). */
  get size(): number {
    return this.cache.size;
  }

  private remember(key: string, doc: ViewDocument): void {
    this.cache.delete(key);
    this.cache.set(key, doc);
    while (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
  }

  private async load(serverId: string, uri: string): Promise<ViewDocument> {
    const result = await this.read(serverId, uri);
    return viewDocumentOf(uri, result);
  }
}

/** Pick and decode the view document out of a resources/read result, or say what is wrong. */
export function viewDocumentOf(uri: string, result: ReadResourceResult): ViewDocument {
  const contents = Array.isArray(result.contents) ? result.contents : [];
  const content = contents.find((c) => c.uri === uri) ?? contents[0];
  const invalid = (why: string) =>
    new HostFailure('view_invalid', `The server's view ${uri} cannot be shown: ${why}.`, { uri });
  if (!content) throw invalid('the server returned no content for it');
  const mime = (content.mimeType ?? '').replace(/\s+/g, '').toLowerCase();
  if (mime !== MCP_APP_MIME)
    throw invalid(`its type is "${content.mimeType ?? 'missing'}", not ${MCP_APP_MIME}`);
  let html: string;
  if (typeof content.text === 'string') html = content.text;
  else if (typeof content.blob === 'string') {
    if (content.blob.length > (MAX_VIEW_BYTES * 4) / 3 + 4) throw invalid('it is larger than 8 MB');
    html = Buffer.from(content.blob, 'base64').toString('utf8');
  } else throw invalid('it has neither text nor a blob');
  if (Buffer.byteLength(html) > MAX_VIEW_BYTES) throw invalid('it is larger than 8 MB');
  if (!html.trim()) throw invalid('it is empty');
  return { html, content };
}
