import { readFile } from 'node:fs/promises';
import { LOG_LEVELS, type LogLevel } from '../../../shared/ipc/channels/subscription-channels.js';
import { SerialWriter } from '../util/atomic-write.js';

const isLevel = (v: unknown): v is LogLevel =>
  typeof v === 'string' && (LOG_LEVELS as readonly string[]).includes(v);

/** The log level chosen per server: `<dataDir>/log-levels.json`, or memory only. */
export class LogLevelStore {
  private constructor(
    private readonly levels: Map<string, LogLevel>,
    private readonly writer?: SerialWriter,
  ) {}

  static inMemory(): LogLevelStore {
    return new LogLevelStore(new Map());
  }

  /** Levels persisted in `path`; an unreadable file starts empty (the servers' defaults are harmless). */
  static async open(path: string): Promise<LogLevelStore> {
    const levels = new Map<string, LogLevel>();
    try {
      const doc = JSON.parse(await readFile(path, 'utf8')) as { levels?: Record<string, unknown> };
      for (const [id, level] of Object.entries(doc.levels ?? {})) if (isLevel(level)) levels.set(id, level);
    } catch {
      // Missing or corrupt: no level chosen anywhere yet.
    }
    return new LogLevelStore(levels, new SerialWriter(path));
  }

  get(serverId: string): LogLevel | undefined {
    return this.levels.get(serverId);
  }

  async set(serverId: string, level: LogLevel | undefined): Promise<void> {
    if (level) this.levels.set(serverId, level);
    else if (!this.levels.delete(serverId)) return;
    await this.writer?.write(`${JSON.stringify({ levels: Object.fromEntries(this.levels) }, null, 2)}\n`);
  }

  flush(): Promise<void> {
    return this.writer?.flush() ?? Promise.resolve();
  }
}
