import { readFile, rename } from 'node:fs/promises';
import { SerialWriter } from '../util/atomic-write.js';
import { parsePins, serialisePins, type ServerPins, type ToolPin } from './pin-records.js';

/** How an unreadable pins file was handled, for the warning and the audit log. */
export interface PinsFileProblem {
  path: string;
  message: string;
}

/**
 * Every server's pinned tool definitions, kept in `<dataDir>/tool-pins.json` (memory only
 * without a data folder) and keyed by server identity: its name *and* the hash of its launch
 * config, so another server that takes the same name (another command, another URL) starts
 * with pins of its own and inherits no approval.
 *
 * Writes are atomic and in order (SerialWriter). A file that cannot be read, or has parts
 * that do not parse, is moved aside as `tool-pins.json.corrupt-<time>` (so nothing is lost
 * for good), every valid part is kept, and the problem is reported; the host carries on.
 */
export class PinStore {
  private readonly servers = new Map<string, ServerPins>();

  private constructor(
    initial: readonly ServerPins[],
    private readonly writer: SerialWriter | undefined,
    /** What was wrong with the file when it was opened, if anything. */
    readonly problem: PinsFileProblem | undefined,
  ) {
    for (const s of initial) this.servers.set(identity(s.serverId, s.launchKey), s);
  }

  /** Open the pins file; a missing one is an empty store, a broken one is set aside (see the class). */
  static async open(path: string): Promise<PinStore> {
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') {
        // Unreadable (permissions, a folder in its place): writing over it could lose it, so don't.
        const message = `tool pins file ${path} could not be read (${code ?? (error as Error).message}); pins are kept in memory only this session`;
        return new PinStore([], undefined, { path, message });
      }
    }
    if (text === undefined) return new PinStore([], new SerialWriter(path), undefined);
    const problems: string[] = [];
    let servers: ServerPins[] = [];
    try {
      servers = parsePins(JSON.parse(text), problems);
    } catch (error) {
      problems.push(`not JSON (${(error as Error).message})`);
    }
    if (!problems.length) return new PinStore(servers, new SerialWriter(path), undefined);
    const aside = `${path}.corrupt-${Date.now()}`;
    const moved = await rename(path, aside).then(
      () => true,
      () => false,
    );
    const what =
      problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; and ${problems.length - 5} more` : '');
    if (!moved) {
      const message = `tool pins file ${path}: ${what}. It could not be moved aside, so pins are kept in memory only this session.`;
      return new PinStore(servers, undefined, { path, message });
    }
    const kept = servers.reduce((n, s) => n + s.tools.size, 0);
    const message = `tool pins file ${path}: ${what}. ${kept} valid pin${kept === 1 ? ' was' : 's were'} kept; tools without a pin are pinned again as they are listed. The original file was kept as ${aside}.`;
    const store = new PinStore(servers, new SerialWriter(path), { path, message });
    await store.save().catch(() => undefined);
    return store;
  }

  /** Pins that live only in memory (tests, hosts without a data folder). */
  static inMemory(): PinStore {
    return new PinStore([], undefined, undefined);
  }

  /** The pins of one server identity, created empty on first use. */
  pinsOf(serverId: string, launchKey: string): Map<string, ToolPin> {
    const key = identity(serverId, launchKey);
    let entry = this.servers.get(key);
    if (!entry) {
      // Pins of the server's older launch configs stay: trust records for those configs stay
      // too, and an edit back to one must find what was approved for it, not pin afresh.
      entry = { serverId, launchKey, tools: new Map() };
      this.servers.set(key, entry);
    }
    return entry.tools;
  }

  /** The pins of one server identity, if any exist (no entry is created). */
  peek(serverId: string, launchKey: string): Map<string, ToolPin> | undefined {
    return this.servers.get(identity(serverId, launchKey))?.tools;
  }

  /** Every server identity's pins. */
  all(): Iterable<ServerPins> {
    return this.servers.values();
  }

  /** Forget a removed server's pins (a new server of that name starts clean). */
  forget(serverId: string): boolean {
    let dropped = false;
    for (const [k, s] of this.servers)
      if (s.serverId === serverId) dropped = this.servers.delete(k) || dropped;
    return dropped;
  }

  /** Queue a write of the current pins; resolves once it has landed (at once in memory). */
  save(): Promise<void> {
    return this.writer?.write(serialisePins(this.servers.values())) ?? Promise.resolve();
  }

  /** Resolves once every queued write has finished. */
  flush(): Promise<void> {
    return this.writer?.flush() ?? Promise.resolve();
  }
}

function identity(serverId: string, launchKey: string): string {
  return `${serverId}\u0000${launchKey}`;
}
