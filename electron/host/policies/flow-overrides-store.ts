import { z } from 'zod';
import { FLOW_LABELS, type FlowLabel, type FlowOverride } from '../../../shared/domain/flows.js';
import { ServerEntriesFile } from './server-entries-file.js';

const labelsSchema = z.array(z.enum(['source', 'sensitive', 'sink'])).max(3);
const setAt = z.string().max(40).optional();
const entrySchema = z
  .object({
    labels: labelsSchema.optional(),
    setAt,
    tools: z.record(z.string().min(1).max(300), z.object({ labels: labelsSchema, setAt }).strip()).optional(),
  })
  .strip();
type Entry = z.infer<typeof entrySchema>;

/**
 * A person's flow-label overrides, per tool and per server, in `<dataDir>/flows.json` (a file of
 * its own, like sampling.json). A tool's override wins over its server's, which wins over the
 * computed defaults. An unreadable file or entry loses only itself and falls back to the
 * defaults, which only ever hold more calls, never fewer.
 */
export class FlowOverridesStore {
  private readonly servers: Map<string, Entry>;

  private constructor(
    private readonly file: ServerEntriesFile<Entry>,
    private readonly now: () => Date,
  ) {
    this.servers = file.entries;
  }

  /** Load `path`; a missing or unreadable file means the defaults everywhere. */
  static async open(
    path: string,
    warn: (message: string) => void = (m) => console.warn(m),
    now: () => Date = () => new Date(),
  ): Promise<FlowOverridesStore> {
    const labels = { what: 'flow label overrides', fallback: 'every tool keeps its default labels' };
    return new FlowOverridesStore(await ServerEntriesFile.open(path, entrySchema, labels, warn), now);
  }

  /** Overrides that live only in memory (CLI one-shots, tests). */
  static inMemory(now: () => Date = () => new Date()): FlowOverridesStore {
    return new FlowOverridesStore(ServerEntriesFile.inMemory(), now);
  }

  /** Called after every change (before it is written), so views update at once. */
  onChange(listener: () => void): () => void {
    return this.file.onChange(listener);
  }

  /** The override that applies to a tool: its own, else its server's, else none. */
  lookup(serverId: string, tool: string): FlowOverride | undefined {
    const e = this.servers.get(serverId);
    const own = e?.tools?.[tool];
    if (own) return { serverId, tool, labels: own.labels, ...(own.setAt ? { setAt: own.setAt } : {}) };
    if (e?.labels) return { serverId, labels: e.labels, ...(e.setAt ? { setAt: e.setAt } : {}) };
    return undefined;
  }

  /** Every override of every server (Permissions), servers first, then their tools. */
  list(): FlowOverride[] {
    const out: FlowOverride[] = [];
    for (const [serverId, e] of this.servers) {
      if (e.labels) out.push({ serverId, labels: e.labels, ...(e.setAt ? { setAt: e.setAt } : {}) });
      for (const [tool, t] of Object.entries(e.tools ?? {}))
        out.push({ serverId, tool, labels: t.labels, ...(t.setAt ? { setAt: t.setAt } : {}) });
    }
    return out;
  }

  /** Set the labels of a tool (or, without `tool`, of every tool of the server); `null` goes back to the defaults. */
  async set(
    serverId: string,
    tool: string | undefined,
    labels: readonly FlowLabel[] | null,
  ): Promise<boolean> {
    const e: Entry = { ...this.servers.get(serverId) };
    const clean = labels === null ? null : FLOW_LABELS.filter((l) => labels.includes(l));
    const stamp = this.now().toISOString();
    if (tool === undefined) {
      if (clean === null) {
        if (!e.labels) return false;
        delete e.labels;
        delete e.setAt;
      } else Object.assign(e, { labels: clean, setAt: stamp });
    } else {
      const tools = { ...e.tools };
      if (clean === null) {
        if (!tools[tool]) return false;
        delete tools[tool];
      } else tools[tool] = { labels: clean, setAt: stamp };
      if (Object.keys(tools).length) e.tools = tools;
      else delete e.tools;
    }
    if (!e.labels && !e.tools) this.servers.delete(serverId);
    else this.servers.set(serverId, e);
    await this.file.changed();
    return true;
  }

  /** Forget every override of a server (it was removed, or its permissions revoked). */
  async forget(serverId: string): Promise<void> {
    if (this.servers.delete(serverId)) await this.file.changed();
  }

  flush(): Promise<void> {
    return this.file.flush();
  }
}
