import type { Root } from '@modelcontextprotocol/client';
import type {
  CallToolResult,
  GetPromptResult,
  ReadResourceResult,
} from '../../../shared/domain/mcp-types.js';
import type { CompletionValues } from '../../../shared/ipc/contract.js';
import type { AuditLog } from '../audit/audit-log.js';
import { auditToolCall } from '../audit/host-audit.js';
import type { ServerConnection } from '../connection/server-connection.js';
import type { CallOptions, CompletionRef } from '../connection/session-requests.js';
import type { MetricsRecorder } from '../metrics/metrics-recorder.js';
import type { TaskService } from '../tasks/task-service.js';
import { isInsideRoots } from '../roots/root-guard.js';
import type { Disposable } from '../util/disposable.js';
import { HostFailure, Cancellation } from '../util/errors.js';
import { explainCallFailure } from './call-failure.js';
import { CallOrigins, INPUT_ROUND_PROGRESS, type Attribution } from './call-origins.js';
import { capPromptResult, capResourceResult } from './read-caps.js';
import { capToolResult } from './result-caps.js';

/** Options of one routed tool call; `callId` lets a later cancel() find it. */
export interface ToolCallOptions {
  callId?: string;
  /** The chat conversation the call belongs to (absent: the Tools view, the CLI). */
  conversationId?: string;
  /** An app view asked for the call: the tool whose view it was (recorded in the audit log). */
  fromView?: string;
  timeoutMs?: number;
  onProgress?: CallOptions['onProgress'];
}

/** What the calls need: the live connection of a server, the shared folders, the audit log. */
export interface ServerCallsDeps {
  /** The server's connection; throws unknown_server / config_invalid. */
  connection: (serverId: string) => ServerConnection;
  listRoots?: () => Root[];
  audit?: AuditLog;
  /** Where every settled call is counted (absent: not counted). */
  metrics?: MetricsRecorder;
  /** The server's last stderr line, quoted when it dies mid-call. */
  lastStderr?: (serverId: string) => string | undefined;
  /** Follows calls that servers run as tasks (absent: every call is a plain tools/call). */
  tasks?: Pick<TaskService, 'callTool'>;
}

/**
 * Requests made of servers on a person's (or the chat engine's) behalf: tool calls with
 * cancellation and audit, resource reads guarded by the shared folders, prompts, completion.
 */
export class ServerCalls implements Disposable {
  private readonly calls = new Map<string, AbortController>();
  /** What each call in flight caused: the sampling and elicitation its server asks meanwhile. */
  private readonly origins = new CallOrigins();

  constructor(private readonly deps: ServerCallsDeps) {}

  /** Call a tool; `callId` lets a later cancel() find it. */
  async callTool(
    serverId: string,
    tool: string,
    args: Record<string, unknown>,
    opts: ToolCallOptions = {},
  ): Promise<CallToolResult> {
    const connection = this.deps.connection(serverId);
    // Only a call with an id can be cancelled (cancel() finds it by id): another needs no
    // controller, and the SDK keeps its own for the call's timeout.
    const controller = opts.callId ? new AbortController() : undefined;
    if (opts.callId && controller) {
      if (this.calls.has(opts.callId))
        throw new HostFailure('duplicate_call', `call id "${opts.callId}" is already in flight`);
      this.calls.set(opts.callId, controller);
    }
    const audited = auditToolCall(
      this.deps.audit,
      serverId,
      tool,
      args,
      opts.callId,
      opts.conversationId,
      opts.fromView,
    );
    const started = performance.now();
    const callId = opts.callId;
    const onProgress: CallOptions['onProgress'] = callId
      ? (p) => {
          if (p.message && INPUT_ROUND_PROGRESS.test(p.message)) this.origins.enterRound(callId);
          opts.onProgress?.(p);
        }
      : opts.onProgress;
    const tasks = this.deps.tasks;
    const invoke = () =>
      tasks
        ? tasks.callTool(connection.requests, {
            serverId,
            tool,
            args,
            ...(controller ? { signal: controller.signal } : {}),
            ...(callId ? { callId } : {}),
            ...(opts.conversationId ? { conversationId: opts.conversationId } : {}),
            ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
            ...(onProgress ? { onProgress } : {}),
          })
        : connection.requests.callTool(tool, args, {
            ...(controller ? { signal: controller.signal } : {}),
            timeoutMs: opts.timeoutMs,
            onProgress,
          });
    try {
      const result = capToolResult(
        callId
          ? await this.origins.run(
              serverId,
              {
                callId,
                toolName: tool,
                ...(opts.conversationId ? { conversationId: opts.conversationId } : {}),
              },
              async () => {
                try {
                  return await invoke();
                } catch (error) {
                  // A call that ended without a result (timeout, cancel, failure) has nobody left to use what it asked for.
                  this.origins.settle(callId, controller?.signal.aborted ? 'stopped' : 'failed');
                  throw error;
                }
              },
            )
          : await invoke(),
      );
      audited.ok(result);
      this.deps.metrics?.toolCall(serverId, started, args, result);
      return result;
    } catch (error) {
      // The SDK reports every abort as a REQUEST_TIMEOUT SdkError; a cancel is not a timeout.
      const thrown: unknown =
        controller?.signal.aborted && controller.signal.reason instanceof HostFailure
          ? controller.signal.reason
          : explainCallFailure(error, {
              serverId,
              tool,
              timeoutMs: opts.timeoutMs ?? connection.timeout,
              lastStderr: () => this.deps.lastStderr?.(serverId),
            });
      audited.failed(thrown);
      this.deps.metrics?.toolCall(serverId, started, args, undefined, thrown);
      throw thrown;
    } finally {
      if (opts.callId) this.calls.delete(opts.callId);
    }
  }

  /**
   * Cancel an in-flight call: first every sampling/elicitation it caused is answered (refused,
   * cancelled) so the server hears why, then the SDK sends notifications/cancelled.
   */
  cancel(callId: string): boolean {
    const c = this.calls.get(callId);
    if (!c) return false;
    this.origins.settle(callId, 'stopped');
    c.abort(new Cancellation('cancelled by the user'));
    return true;
  }

  /** The tool call a server request arriving now belongs to (see CallOrigins). */
  attribute(serverId: string): Attribution | undefined {
    return this.origins.attribute(serverId);
  }

  /**
   * Read a resource. A file:// URI must lie inside the shared folders (realpath, no `..` or
   * symlink escapes), checked before anything reaches the server: the host should not fetch
   * (and show, or hand to a model) a file the person did not share. With no roots configured
   * nothing is shared yet and reads keep working as before the roots feature; the person has
   * not drawn a boundary, so there is none to enforce. Other schemes are the server's own.
   * The result is capped (read-caps.ts).
   */
  async readResource(serverId: string, uri: string): Promise<ReadResourceResult> {
    const connection = this.deps.connection(serverId);
    const roots = this.deps.listRoots?.() ?? [];
    if (roots.length > 0 && /^file:/i.test(uri.trim())) {
      const verdict = await isInsideRoots(uri.trim(), roots);
      if (!verdict.ok)
        throw new HostFailure('outside_roots', `refused to read ${uri}: ${verdict.reason}`, { uri });
    }
    return capResourceResult(await connection.requests.readResource(uri));
  }

  /** Get a prompt, capped like a tool result (read-caps.ts). */
  async getPrompt(serverId: string, name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return capPromptResult(await this.deps.connection(serverId).requests.getPrompt(name, args));
  }

  complete(
    serverId: string,
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: { arguments: Record<string, string> },
  ): Promise<CompletionValues> {
    return this.deps.connection(serverId).requests.complete(ref, argument, context);
  }

  /** Shutdown: every call in flight ends as cancelled. */
  dispose(): void {
    for (const c of this.calls.values()) c.abort(new Cancellation('the host is shutting down'));
  }
}
