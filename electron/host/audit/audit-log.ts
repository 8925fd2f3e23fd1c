import { mkdir, open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuditQuery, AuditRecord } from '../../../shared/domain/audit.js';
import type { Redactor } from '../util/redact.js';
import { effectiveLimit, matchesQuery, parseAuditLine, toJsonl } from './audit-query.js';
import type { Disposable } from '../util/disposable.js';

/** A record as its writer hands it over; the log stamps `seq` and, when absent, `at`. */
export type AuditEntry = Omit<AuditRecord, 'seq' | 'at'> & { at?: number };

/** The append-only audit log of connections, tool calls, approvals, sampling, elicitation, auth and roots. */
export interface AuditLog extends Disposable {
  /** Record one event. Never throws and never waits: writes are queued in call order. */
  append(entry: AuditEntry): void;
  /** Matching records, newest first, at most `limit` (500 by default). */
  query(q?: AuditQuery): Promise<AuditRecord[]>;
  /** Matching records as JSON lines, oldest first. */
  export(q?: AuditQuery): Promise<string>;
  /** Resolves once every record appended so far is written. */
  flush(): Promise<void>;
  /** Flush, then refuse further records. */
  dispose(): Promise<void>;
}

/** Knobs for FileAuditLog. */
export interface AuditLogOptions {
  /** The clock (tests inject one to cross midnight). */
  now?: () => number;
  /** Told when a write fails; the log itself keeps going (an audit failure never breaks the host). */
  onError?: (error: unknown) => void;
}

/** A line bigger than this keeps only the shape of its details (a huge tool argument must not bloat the log). */
const MAX_LINE_BYTES = 64 * 1024;
const FILE_NAME = /^audit-(\d{4}-\d{2}-\d{2})\.jsonl$/;
const DAY_MS = 86_400_000;

/** The UTC day a timestamp falls on, as `YYYY-MM-DD`. */
export function auditDay(at: number): string {
  // A burst of records falls on one day: its name is worked out once, not per record.
  if (at >= lastDay.start && at < lastDay.start + DAY_MS) return lastDay.name;
  const start = at - (((at % DAY_MS) + DAY_MS) % DAY_MS);
  lastDay = { start, name: new Date(start).toISOString().slice(0, 10) };
  return lastDay.name;
}
let lastDay = { start: Number.NaN, name: '' };

/** Redact and stamp one entry; shared by both implementations so they record the same thing. */
function seal(entry: AuditEntry, seq: number, now: number, redactor: Redactor | undefined): Sealed {
  const raw: AuditRecord = { seq, at: entry.at ?? now, kind: entry.kind, action: entry.action };
  if (entry.serverId !== undefined) raw.serverId = entry.serverId;
  if (entry.details !== undefined) raw.details = entry.details;
  // Everything goes through the redactor, details and free text alike: a server id or an
  // error message can carry a secret just as well as an argument can.
  const clean = (redactor ? redactor.redactValue(raw) : structuredClone(raw)) as AuditRecord;
  // Serialised once: the file log writes this very text (a burst of calls audits each one).
  let json = JSON.stringify(clean);
  if (Buffer.byteLength(json) > MAX_LINE_BYTES && clean.details) {
    clean.details = { truncated: true, keys: Object.keys(clean.details).slice(0, 50) };
    json = JSON.stringify(clean);
  }
  return { record: clean, json };
}

/** A sealed entry and its JSON text. */
interface Sealed {
  record: AuditRecord;
  json: string;
}

/**
 * The audit log on disk: one JSON object per line in `<dir>/audit-YYYY-MM-DD.jsonl` (UTC
 * day, so each day starts a new file). Lines are only ever appended, one whole line per
 * write, through a single queue, so records keep call order and never interleave; a crash
 * mid-write can cut at most the last line short, and readers skip such a line.
 */
export class FileAuditLog implements AuditLog {
  private tail: Promise<void> = Promise.resolve();
  /** Lines appended but not yet handed to a write: each write takes all of them at once. */
  private queued: { day: string; line: string }[] = [];
  private seq = 0;
  private disposed = false;
  private ready?: Promise<void>;
  /** Day files already checked for a cut-short last line in this process. */
  private readonly checked = new Set<string>();
  private readonly now: () => number;

  constructor(
    private readonly dir: string,
    private readonly redactor?: Redactor,
    private readonly opts: AuditLogOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  append(entry: AuditEntry): void {
    if (this.disposed) return;
    let line: string;
    let day: string;
    try {
      const { record, json } = seal(entry, ++this.seq, this.now(), this.redactor);
      line = `${json}\n`;
      day = auditDay(record.at);
    } catch (error) {
      this.opts.onError?.(error);
      return;
    }
    // One file write per batch, not per record: under a burst of calls a write per record
    // (open, append, close) falls behind and the queue of lines grows without bound.
    this.queued.push({ day, line });
    if (this.queued.length > 1) return;
    this.tail = this.tail.then(() => this.drain()).catch((error: unknown) => this.opts.onError?.(error));
  }

  async query(q: AuditQuery = {}): Promise<AuditRecord[]> {
    await this.flush();
    const limit = effectiveLimit(q);
    const out: AuditRecord[] = [];
    if (limit === 0) return out;
    for (const day of await this.days(q)) {
      let text: string;
      try {
        text = await readFile(join(this.dir, `audit-${day}.jsonl`), 'utf8');
      } catch {
        continue;
      }
      const lines = text.split('\n');
      for (let i = lines.length - 1; i >= 0; i--) {
        const r = parseAuditLine(lines[i]);
        if (r && matchesQuery(r, q)) {
          out.push(r);
          if (out.length >= limit) return out;
        }
      }
    }
    return out;
  }

  async export(q: AuditQuery = {}): Promise<string> {
    return toJsonl(await this.query(q));
  }

  flush(): Promise<void> {
    return this.tail;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.flush();
  }

  /** The day files that can hold records in the query's range, newest first. */
  private async days(q: AuditQuery): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const days: string[] = [];
    for (const name of names) {
      const m = FILE_NAME.exec(name);
      if (!m) continue;
      const start = Date.parse(`${m[1]}T00:00:00Z`);
      if (Number.isNaN(start)) continue;
      if (q.to !== undefined && start > q.to) continue;
      if (q.from !== undefined && start + DAY_MS <= q.from) continue;
      days.push(m[1]);
    }
    return days.sort().reverse();
  }

  /** Write everything queued so far, in order, one append per run of records of the same day. */
  private async drain(): Promise<void> {
    const batch = this.queued;
    this.queued = [];
    for (let i = 0; i < batch.length;) {
      const day = batch[i].day;
      let text = '';
      while (i < batch.length && batch[i].day === day) text += batch[i++].line;
      await this.write(day, text);
    }
  }

  private async write(day: string, line: string): Promise<void> {
    this.ready ??= mkdir(this.dir, { recursive: true, mode: 0o700 }).then(() => undefined);
    await this.ready;
    const path = join(this.dir, `audit-${day}.jsonl`);
    const handle = await open(path, 'a+', 0o600);
    try {
      let text = line;
      if (!this.checked.has(day)) {
        // A previous run may have died mid-line: start on a fresh line so this record stays whole.
        const { size } = await handle.stat();
        if (size > 0) {
          const last = Buffer.alloc(1);
          await handle.read(last, 0, 1, size - 1);
          if (last[0] !== 0x0a) text = `\n${line}`;
        }
        this.checked.add(day);
      }
      await handle.appendFile(text, 'utf8');
    } finally {
      await handle.close();
    }
  }
}

/** The audit log in memory (tests, CLI one-shots); bounded, oldest records dropped first. */
export class MemoryAuditLog implements AuditLog {
  private readonly records: AuditRecord[] = [];
  private seq = 0;
  private disposed = false;
  private readonly now: () => number;
  private readonly max: number;

  constructor(
    private readonly redactor?: Redactor,
    opts: { now?: () => number; max?: number } = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.max = opts.max ?? 10_000;
  }

  append(entry: AuditEntry): void {
    if (this.disposed) return;
    this.records.push(seal(entry, ++this.seq, this.now(), this.redactor).record);
    if (this.records.length > this.max) this.records.splice(0, this.records.length - this.max);
  }

  async query(q: AuditQuery = {}): Promise<AuditRecord[]> {
    const limit = effectiveLimit(q);
    const out: AuditRecord[] = [];
    for (let i = this.records.length - 1; i >= 0 && out.length < limit; i--) {
      const r = this.records[i];
      if (matchesQuery(r, q)) out.push(structuredClone(r));
    }
    return out;
  }

  async export(q: AuditQuery = {}): Promise<string> {
    return toJsonl(await this.query(q));
  }

  async flush(): Promise<void> {}

  async dispose(): Promise<void> {
    this.disposed = true;
  }
}
