import type { ToolWarning } from './tool-trust.js';

/** A path a dry-run server tried and the sandbox refused: hidden from it, or read-only. */
export interface TriedPath {
  path: string;
  /** What it tried: read (open, stat, list), write (create, change, delete) or run (execve). */
  op: 'read' | 'write' | 'run';
  /** `hidden`: exists on this machine but is not visible inside; `read-only`: a write was refused. */
  denied: 'hidden' | 'read-only';
}

/** A connection a dry-run server tried (the dry run has no network, so none left the sandbox). */
export interface TriedConnection {
  /** `host:port`, `[v6]:port`, or a Unix socket's path (`@name` for an abstract one). */
  address: string;
  family: 'ipv4' | 'ipv6' | 'unix';
}

/** What a dry run recorded, or why it could not record anything. */
export type DryRunAttempts =
  | {
      recorded: true;
      paths: TriedPath[];
      connections: TriedConnection[];
      /** True when more was tried than the lists hold. */
      truncated: boolean;
    }
  | { recorded: false; reason: string };

/** One tool, resource or prompt as the dry run listed it. */
export interface DryRunItem {
  name: string;
  description?: string;
}

/** A listed tool with what the integrity checks found in it (poisoning, hidden characters, shadowing). */
export interface DryRunTool extends DryRunItem {
  warnings: ToolWarning[];
}

/**
 * What running a server once in the dry-run sandbox showed, before it is trusted: the exact
 * command (every argument, untruncated), whether the sandbox ran and how it ended, what the
 * server listed, what the checks found, and what it tried that the sandbox refused.
 */
export interface DryRunReport {
  /** The server's name as it would be installed. */
  serverName: string;
  /** The command and arguments exactly as configured (references like `${secret:X}` unexpanded). */
  command: string;
  args: string[];
  /** Environment variable names the entry sets (values are never shown: they may be secrets). */
  envNames: string[];
  /** How it ran: in the sandbox, or not at all (no sandbox here; a remote server). */
  sandbox:
    | { kind: 'ran'; tool: 'bubblewrap' | 'sandbox-exec' }
    | { kind: 'unavailable'; reason: string }
    | { kind: 'not-applicable'; reason: string };
  /** Whether the server started and answered its lists; if not, why (and its last stderr). */
  outcome: { kind: 'listed'; durationMs: number } | { kind: 'failed'; message: string } | { kind: 'skipped' };
  tools: DryRunTool[];
  resources: DryRunItem[];
  prompts: DryRunItem[];
  attempts: DryRunAttempts;
  /** Warnings about the entry itself, readable without running it (the static checks). */
  notes: string[];
}
