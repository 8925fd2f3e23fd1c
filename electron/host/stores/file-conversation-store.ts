import { access, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Conversation, ConversationSummary } from '../../../shared/domain/chat.js';
import { SerialWriter } from '../util/atomic-write.js';
import { describeIssues, HostFailure } from '../util/errors.js';
import {
  assertConversationId,
  checkTitle,
  DEFAULT_CONVERSATION_TITLE,
  newConversationId,
  newestFirst,
  notFound,
  summarise,
  type ConversationStore,
} from './conversation-store.js';

/** Options for FileConversationStore. */
export interface FileConversationStoreOptions {
  /** Told about files that were skipped (unreadable, not JSON, not a conversation). */
  onWarning?: (message: string) => void;
  now?: () => number;
}

// Checks only what the store and the list rely on; parts stay as written, so a newer
// app's part types survive a round trip through an older one.
const storedConversation = z.looseObject({
  id: z.string().optional(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  messages: z.array(
    z.looseObject({
      id: z.string(),
      role: z.enum(['user', 'assistant']),
      parts: z.array(z.looseObject({ type: z.string() })),
      createdAt: z.number(),
    }),
  ),
});

const FILE_NAME = /^([A-Za-z0-9_-]{1,64})\.json$/;
const READ_BATCH = 32;

type ReadResult = { ok: true; conversation: Conversation } | { ok: false; missing: boolean; reason: string };

/**
 * One JSON file per conversation, `<dir>/<id>.json`, each written atomically and in call
 * order, so a crash mid-write leaves the previous save intact. A file that cannot be read
 * is skipped and reported, never deleted or overwritten: it may be the only copy of a chat.
 *
 * `get` hands out the store's live object for as long as anyone holds it (a WeakRef), so a
 * rename during a running chat and the run's own saves edit the same object and cannot
 * undo each other; once nobody holds it, the file (flushed first) is the truth again.
 */
export class FileConversationStore implements ConversationStore {
  private index: Promise<Map<string, ConversationSummary>> | undefined;
  private readonly live = new Map<string, WeakRef<Conversation>>();
  private readonly writers = new Map<string, SerialWriter>();
  private readonly corrupt = new Map<string, string>();
  // A run still finishing after its conversation was deleted must not bring the file back.
  private readonly deleted = new Set<string>();
  private readonly onWarning: (message: string) => void;
  private readonly now: () => number;

  constructor(
    readonly dir: string,
    options: FileConversationStoreOptions = {},
  ) {
    this.onWarning = options.onWarning ?? ((message) => console.warn(message));
    this.now = options.now ?? Date.now;
  }

  async list(): Promise<ConversationSummary[]> {
    const index = await this.loadIndex();
    return [...index.values()].map((s) => ({ ...s })).sort(newestFirst);
  }

  async get(id: string): Promise<Conversation> {
    assertConversationId(id);
    const alive = this.live.get(id)?.deref();
    if (alive) return alive;
    if (this.deleted.has(id)) throw notFound(id);
    await this.writers.get(id)?.flush();
    const read = await this.readFile(id);
    if (!read.ok) {
      if (read.missing) throw notFound(id);
      this.corrupt.set(id, read.reason);
      throw this.corruptFailure(id, read.reason);
    }
    // Another get may have loaded it while this one was reading: keep a single live object.
    const raced = this.live.get(id)?.deref();
    if (raced) return raced;
    if (this.corrupt.delete(id)) (await this.loadIndex()).set(id, summarise(read.conversation)); // repaired by hand
    this.live.set(id, new WeakRef(read.conversation));
    return read.conversation;
  }

  async create(title?: string): Promise<Conversation> {
    const name = title === undefined || title.trim() === '' ? DEFAULT_CONVERSATION_TITLE : checkTitle(title);
    const index = await this.loadIndex();
    let id = newConversationId();
    while (index.has(id) || this.corrupt.has(id) || this.deleted.has(id) || (await this.exists(id)))
      id = newConversationId();
    const at = this.now();
    const conversation: Conversation = { id, title: name, createdAt: at, updatedAt: at, messages: [] };
    await this.save(conversation);
    return conversation;
  }

  async save(conversation: Conversation): Promise<void> {
    const id = conversation.id;
    assertConversationId(id);
    if (this.deleted.has(id))
      throw new HostFailure('conversation_not_found', `conversation "${id}" was deleted`);
    const bad = this.corrupt.get(id);
    if (bad !== undefined) throw this.corruptFailure(id, bad);
    // Snapshot now: the caller keeps editing the object while the write waits its turn.
    conversation.updatedAt = this.now();
    const text = `${JSON.stringify(conversation, null, 2)}\n`;
    const summary = summarise(conversation);
    this.live.set(id, new WeakRef(conversation));
    const index = await this.loadIndex();
    await this.writerFor(id).write(text);
    if (!this.deleted.has(id)) index.set(id, summary);
  }

  async rename(id: string, title: string): Promise<ConversationSummary> {
    const name = checkTitle(title);
    const conversation = await this.get(id);
    conversation.title = name;
    await this.save(conversation);
    return summarise(conversation);
  }

  async delete(id: string): Promise<void> {
    assertConversationId(id);
    const bad = this.corrupt.get(id);
    if (bad !== undefined) {
      throw new HostFailure(
        'conversation_corrupt',
        `conversation "${id}" could not be read (${bad}); its file ${this.pathOf(id)} was left in place for you to inspect`,
      );
    }
    const index = await this.loadIndex();
    this.deleted.add(id);
    this.live.delete(id);
    await this.writers.get(id)?.flush();
    this.writers.delete(id);
    try {
      await unlink(this.pathOf(id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.deleted.delete(id);
        throw error;
      }
    }
    index.delete(id);
  }

  flush(): Promise<void> {
    return Promise.all([...this.writers.values()].map((w) => w.flush())).then(() => undefined);
  }

  dispose(): Promise<void> {
    return this.flush();
  }

  private pathOf(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  private writerFor(id: string): SerialWriter {
    let writer = this.writers.get(id);
    if (!writer) this.writers.set(id, (writer = new SerialWriter(this.pathOf(id))));
    return writer;
  }

  private corruptFailure(id: string, reason: string): HostFailure {
    return new HostFailure(
      'conversation_corrupt',
      `conversation "${id}" could not be read (${reason}); its file ${this.pathOf(id)} was left untouched`,
    );
  }

  private async exists(id: string): Promise<boolean> {
    try {
      await access(this.pathOf(id));
      return true;
    } catch {
      return false;
    }
  }

  private loadIndex(): Promise<Map<string, ConversationSummary>> {
    this.index ??= this.scan();
    return this.index;
  }

  private async scan(): Promise<Map<string, ConversationSummary>> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
      this.index = undefined; // let a later call retry (e.g. a permission fixed meanwhile)
      throw error;
    }
    // Leftover `<id>.json.<pid>.<rand>.tmp` files from a crash never match, so they are ignored.
    const ids = names.flatMap((n) => FILE_NAME.exec(n)?.[1] ?? []);
    const index = new Map<string, ConversationSummary>();
    for (let i = 0; i < ids.length; i += READ_BATCH) {
      const batch = ids.slice(i, i + READ_BATCH);
      const results = await Promise.all(batch.map((id) => this.readFile(id)));
      results.forEach((read, j) => {
        const id = batch[j];
        if (read.ok) {
          index.set(id, summarise(read.conversation));
        } else if (!read.missing) {
          this.corrupt.set(id, read.reason);
          this.onWarning(
            `skipped conversation file ${this.pathOf(id)}: ${read.reason}; the file was left untouched`,
          );
        }
      });
    }
    return index;
  }

  private async readFile(id: string): Promise<ReadResult> {
    let text: string;
    try {
      text = await readFile(this.pathOf(id), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { ok: false, missing: true, reason: 'no such file' };
      return { ok: false, missing: false, reason: `cannot read it: ${code ?? (error as Error).message}` };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return { ok: false, missing: false, reason: `not valid JSON: ${(error as Error).message}` };
    }
    const parsed = storedConversation.safeParse(json);
    if (!parsed.success)
      return {
        ok: false,
        missing: false,
        reason: `not a conversation: ${describeIssues(parsed.error.issues)}`,
      };
    // The schema checked the shape the store relies on; parts are trusted as written (see above).
    // The file name is the id: a copied file is its own conversation, not a second writer of the original.
    const conversation: Conversation = { ...(json as Conversation), id };
    return { ok: true, conversation };
  }
}
