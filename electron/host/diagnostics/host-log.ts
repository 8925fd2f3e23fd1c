import { join } from 'node:path';
import type { Disposable } from '../util/disposable.js';
import { Redactor } from '../util/redact.js';
import { RotatingLog, type RotatingLogOptions } from './rotating-log.js';

/** How bad an entry is. */
export type LogLevel = 'error' | 'warn' | 'info';

/** Where an entry came from: the main process, a renderer, a child process, the host. */
export type LogSource = 'main' | 'renderer' | 'process' | 'host';

/** One entry's text is capped: a runaway message must not fill the log in one write. */
export const MAX_ENTRY_CHARS = 16_000;

/** The log folder inside a data folder. */
export function logsDirOf(dataDir: string): string {
  return join(dataDir, 'logs');
}

/**
 * The app's own error log (not a server's stderr): uncaught errors of main and renderers,
 * gone processes. Every entry carries the time and the app version and passes through the
 * host's Redactor before it reaches the file, so no secret the host knows lands there.
 * Without a file (the CLI, tests) entries are dropped.
 */
export class HostLog {
  constructor(
    readonly redactor: Redactor,
    readonly version: string,
    private readonly file?: RotatingLog,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A log writing to `<dataDir>/logs/main.log`; failures to write are reported once on stderr. */
  static inDataDir(dataDir: string, version: string, options: RotatingLogOptions = {}): HostLog {
    const file = new RotatingLog(logsDirOf(dataDir), {
      onFailure: (error) => console.warn(`mcp-desk: cannot write the log (${error.message}); not logging`),
      ...options,
    });
    return new HostLog(new Redactor(), version, file);
  }

  /** The folder the log files are in, if there is a file. */
  get dir(): string | undefined {
    return this.file?.dir;
  }

  /** Log an error (an Error's stack, or any thrown value) with what it happened in. */
  error(source: LogSource, what: string, error?: unknown): void {
    this.write('error', source, error === undefined ? what : `${what}: ${describe(error)}`);
  }

  /** Log a warning. */
  warn(source: LogSource, text: string): void {
    this.write('warn', source, text);
  }

  /** Log a fact worth having in a bug report (a start, a gone process that exited cleanly). */
  info(source: LogSource, text: string): void {
    this.write('info', source, text);
  }

  private write(level: LogLevel, source: LogSource, text: string): void {
    if (!this.file) return;
    const clipped = text.length > MAX_ENTRY_CHARS ? `${text.slice(0, MAX_ENTRY_CHARS)}… (clipped)` : text;
    // Continuation lines are indented so an entry (a stack) reads as one block.
    const body = this.redactor.redactText(clipped).replace(/\r?\n/g, '\n    ');
    this.file.write(`${this.now().toISOString()} ${level.toUpperCase()} v${this.version} ${source}: ${body}`);
  }
}

/** An Error as its stack (which starts with its message), anything else as text. */
function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** The slice of `process` the hooks listen on. */
export interface ProcessEvents {
  on(event: 'uncaughtExceptionMonitor', listener: (error: Error, origin: string) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  off(event: 'uncaughtExceptionMonitor', listener: (error: Error, origin: string) => void): unknown;
  off(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
}

/**
 * Log this process's uncaught exceptions and unhandled rejections. Exceptions are watched
 * with `uncaughtExceptionMonitor`, which leaves what happens next (Node exits, Electron shows
 * its dialog) unchanged. `rejections: true` also listens for unhandled rejections, which
 * replaces Node's default (exit) with a log entry: right for Electron main, which only warns
 * anyway; plain Node leaves it false and sees them through the monitor when they crash it.
 */
export function logProcessErrors(
  proc: ProcessEvents,
  log: HostLog,
  source: LogSource,
  options: { rejections: boolean },
): Disposable {
  const onException = (error: Error, origin: string) =>
    log.error(source, origin === 'unhandledRejection' ? 'unhandled rejection' : 'uncaught exception', error);
  const onRejection = (reason: unknown) => log.error(source, 'unhandled rejection', reason);
  proc.on('uncaughtExceptionMonitor', onException);
  if (options.rejections) proc.on('unhandledRejection', onRejection);
  return {
    dispose: () => {
      proc.off('uncaughtExceptionMonitor', onException);
      if (options.rejections) proc.off('unhandledRejection', onRejection);
    },
  };
}
