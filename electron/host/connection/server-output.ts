import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { LogLine, TraceEntry } from '../../../shared/domain/server-state.js';
import { clipValue } from '../util/clip-value.js';
import { formatCount, LIMITS } from '../util/limits.js';
import { RateWindow } from '../util/rate-window.js';
import { RingBuffer } from '../util/ring-buffer.js';
import type { Redactor } from '../util/redact.js';
import { wireBytes } from './stdio-framer.js';
import type { Direction } from './trace-tap.js';

const MAX_LINE = LIMITS.logLineChars;
const MAX_TRACE_JSON = LIMITS.traceEntryChars;
const CLIP = { stringChars: MAX_TRACE_JSON, items: 200, depth: 32 };

interface RawTrace {
  seq: number;
  at: number;
  direction: Direction;
  /** The message itself, rendered when read; absent when it was too big to keep whole. */
  message?: JSONRPCMessage;
  /** A big message, clipped and rendered at once so the original can be let go. */
  rendered?: TraceEntry;
}

/**
 * One server's bounded stderr log and protocol trace. Trace entries are stored as the
 * message objects and only redacted and serialised when someone reads them, which keeps
 * the hot path of a tool call to one array write. Every buffer here has a cap (LIMITS):
 * lines and entries are ring buffers, a flood over the per-second budget is counted and
 * summarised, and a big message is clipped the moment it arrives.
 */
export class ServerOutput {
  private readonly log = new RingBuffer<LogLine>(LIMITS.logLines);
  private readonly trace = new RingBuffer<RawTrace>(LIMITS.traceEntries);
  private seq = 0;
  private partial = '';
  private lastStderrLine?: string;
  private pendingLog: LogLine[] = [];
  private pendingTrace: RawTrace[] = [];
  /** Lines the server feeds (stderr, its log notifications) and the host's notes, budgeted apart. */
  private readonly serverBudget = new RateWindow(LIMITS.logLinesPerSecond, (n) =>
    this.push(
      'host',
      `… dropped ${formatCount(n, 'lines')} from this server (over ${LIMITS.logLinesPerSecond} lines/s)`,
    ),
  );
  private readonly hostBudget = new RateWindow(LIMITS.logLinesPerSecond, (n) =>
    this.push(
      'host',
      `… dropped ${formatCount(n, 'notes')} about this server (over ${LIMITS.logLinesPerSecond} notes/s)`,
    ),
  );

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
    const end = text.lastIndexOf('\n');
    this.partial = end === -1 ? text : text.slice(end + 1);
    const lines = end === -1 ? [] : text.slice(0, end).split(/\r?\n/);
    if (this.partial.length > MAX_LINE) {
      lines.push(this.partial.slice(0, MAX_LINE));
      this.partial = '';
    }
    for (let i = lines.length - 1; i >= 0; i--)
      if (lines[i].trim()) {
        this.lastStderrLine = lines[i].slice(0, MAX_LINE);
        break;
      }
    // Over budget: no redaction and no entries, only the count (a 100 MB flood costs a split).
    const kept = this.serverBudget.takeSome(lines.length);
    for (let i = 0; i < kept; i++) this.push('stderr', lines[i]);
  }

  /** A line the host itself writes about this server (state changes, errors). */
  note(text: string, stream: LogLine['stream'] = 'host'): void {
    this.addLine(stream, text);
  }

  /** Record one JSON-RPC message. */
  record(direction: Direction, message: JSONRPCMessage): void {
    const entry: RawTrace = { seq: ++this.seq, at: Date.now(), direction, message };
    // Keeping a 50 MB message alive for the trace's sake would cost 50 MB per entry.
    if ((wireBytes(message) ?? 0) > MAX_TRACE_JSON) {
      entry.rendered = this.render(entry);
      delete entry.message;
    }
    this.trace.push(entry);
    if (this.live()) {
      this.pendingTrace.push(entry);
      if (this.pendingTrace.length > 2 * LIMITS.traceEntries)
        this.pendingTrace = this.pendingTrace.slice(-LIMITS.traceEntries);
      this.onNew();
    }
  }

  /** The last stderr line, to explain why a process died. */
  lastStderr(): string | undefined {
    // The unterminated tail has not been through addLine's redaction yet.
    const tail = this.partial.trim() || this.lastStderrLine?.trim();
    return tail ? this.redactor.redactText(tail.slice(0, MAX_LINE)) : undefined;
  }

  lines(): LogLine[] {
    return this.log.toArray();
  }

  traceEntries(): TraceEntry[] {
    return this.trace.toArray().map((e) => this.render(e));
  }

  /** Take what arrived since the last drain (for batched live events). */
  drain(): { log: LogLine[]; trace: TraceEntry[] } {
    const out = {
      log: this.pendingLog.slice(-LIMITS.logLines),
      trace: this.pendingTrace.slice(-LIMITS.traceEntries).map((e) => this.render(e)),
    };
    this.pendingLog = [];
    this.pendingTrace = [];
    return out;
  }

  /** Stop the flood summaries' timers (the server is gone). */
  dispose(): void {
    this.serverBudget.dispose();
    this.hostBudget.dispose();
  }

  private addLine(stream: LogLine['stream'], raw: string): void {
    const budget = stream === 'host' ? this.hostBudget : this.serverBudget;
    if (budget.take()) this.push(stream, raw);
  }

  private push(stream: LogLine['stream'], raw: string): void {
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
      if (this.pendingLog.length > 2 * LIMITS.logLines)
        this.pendingLog = this.pendingLog.slice(-LIMITS.logLines);
      this.onNew();
    }
  }

  private render(e: RawTrace): TraceEntry {
    if (e.rendered) return e.rendered;
    const m = e.message as { method?: unknown; id?: unknown };
    let json = JSON.stringify(this.redactor.redactValue(clipValue(e.message, CLIP)));
    if (json.length > MAX_TRACE_JSON) json = `${json.slice(0, MAX_TRACE_JSON)}… (${json.length} chars)`;
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
