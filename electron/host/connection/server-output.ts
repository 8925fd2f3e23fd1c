import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { LogLine, TraceEntry } from '../../../shared/domain/server-state.js';
import { RingBuffer } from '../util/ring-buffer.js';
import type { Redactor } from '../util/redact.js';
import type { Direction } from './trace-tap.js';

const MAX_LINE = 4096;
const MAX_TRACE_JSON = 64 * 1024;

interface RawTrace {
  seq: number;
  at: number;
  direction: Direction;
  message: JSONRPCMessage;
}

/**
 * One server's bounded stderr log and protocol trace. Trace entries are stored as the
 * message objects and only redacted and serialised when someone reads them, which keeps
 * the hot path of a tool call to one array write.
 */
export class ServerOutput {
  private readonly log = new RingBuffer<LogLine>(2000);
  private readonly trace = new RingBuffer<RawTrace>(1000);
  private seq = 0;
  private partial = '';
  private pendingLog: LogLine[] = [];
  private pendingTrace: RawTrace[] = [];

  constructor(
    private readonly redactor: Redactor,
    /** Called when new output is waiting; the host batches and flushes. */
    private readonly onNew: () => void,
    /** Whether anyone is listening for live output (no listener, no batching work). */
    private readonly live: () => boolean,
  ) {}

  /** Append a chunk of a child's stderr, split into lines. */
  stderr(chunk: string): void {
    const text = this.partial + chunk;
    const lines = text.split(/\r?\n/);
    this.partial = lines.pop() ?? '';
    if (this.partial.length > MAX_LINE) {
      lines.push(this.partial);
      this.partial = '';
    }
    for (const line of lines) this.addLine('stderr', line);
  }

  /** A line the host itself writes about this server (state changes, errors). */
  note(text: string, stream: LogLine['stream'] = 'host'): void {
    this.addLine(stream, text);
  }

  /** Record one JSON-RPC message. */
  record(direction: Direction, message: JSONRPCMessage): void {
    const entry = { seq: ++this.seq, at: Date.now(), direction, message };
    this.trace.push(entry);
    if (this.live()) {
      this.pendingTrace.push(entry);
      this.onNew();
    }
  }

  /** The last stderr line, to explain why a process died. */
  lastStderr(): string | undefined {
    // The unterminated tail has not been through addLine's redaction yet.
    const tail = this.partial.trim();
    if (tail) return this.redactor.redactText(tail.slice(0, MAX_LINE));
    const lines = this.log.toArray();
    for (let i = lines.length - 1; i >= 0; i--)
      if (lines[i].stream === 'stderr' && lines[i].text.trim()) return lines[i].text.trim();
    return undefined;
  }

  lines(): LogLine[] {
    return this.log.toArray();
  }

  traceEntries(): TraceEntry[] {
    return this.trace.toArray().map((e) => this.render(e));
  }

  /** Take what arrived since the last drain (for batched live events). */
  drain(): { log: LogLine[]; trace: TraceEntry[] } {
    const out = { log: this.pendingLog, trace: this.pendingTrace.map((e) => this.render(e)) };
    this.pendingLog = [];
    this.pendingTrace = [];
    return out;
  }

  private addLine(stream: LogLine['stream'], raw: string): void {
    const clipped = raw.length > MAX_LINE ? `${raw.slice(0, MAX_LINE)}…` : raw;
    const line: LogLine = {
      seq: ++this.seq,
      at: Date.now(),
      stream,
      text: this.redactor.redactText(clipped),
    };
    this.log.push(line);
    if (this.live()) {
      this.pendingLog.push(line);
      this.onNew();
    }
  }

  private render(e: RawTrace): TraceEntry {
    const m = e.message as { method?: unknown; id?: unknown };
    let json = JSON.stringify(this.redactor.redactValue(e.message));
    if (json.length > MAX_TRACE_JSON) json = `${json.slice(0, MAX_TRACE_JSON)}… (${json.length} bytes)`;
    return {
      seq: e.seq,
      at: e.at,
      direction: e.direction,
      ...(typeof m.method === 'string' ? { method: m.method } : {}),
      ...(typeof m.id === 'string' || typeof m.id === 'number' ? { id: m.id } : {}),
      json,
    };
  }
}
