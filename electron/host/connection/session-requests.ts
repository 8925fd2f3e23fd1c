import type { Client, LoggingLevel, McpSubscription, ServerCapabilities } from '@modelcontextprotocol/client';
import type {
  CallToolResult,
  GetPromptResult,
  ReadResourceResult,
  Tool,
} from '../../../shared/domain/mcp-types.js';
import type { CompletionValues } from '../../../shared/ipc/contract.js';
import { HostFailure } from '../util/errors.js';

/** Options for one tools/call. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
  /** Ask a 2025-11-25 server to run the call as a task (tasks/task-service.ts decides when). */
  task?: { ttl: number };
}

/** A completion's target: a prompt argument or a resource template variable. */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** What the requests need from the connection they run on. */
export interface SessionAccess {
  readonly id: string;
  /** The live client; throws not_connected when there is none. */
  client(): Client;
  /** The tools after include/exclude filters: nothing else may be called. */
  tools(): Tool[];
  timeout(): number;
}

/** Requests a person (or the chat engine) makes of one connected server, with its timeout. */
export class SessionRequests {
  constructor(private readonly session: SessionAccess) {}

  async callTool(
    name: string,
    args: Record<string, unknown>,
    opts: CallOptions = {},
  ): Promise<CallToolResult> {
    const client = this.session.client();
    if (!this.session.tools().some((t) => t.name === name)) {
      throw new HostFailure('unknown_tool', `server "${this.session.id}" has no tool "${name}"`);
    }
    const result = await client.callTool(
      // `task` is 2025-11-25 wire vocabulary the SDK's params type no longer names.
      { name, arguments: args, ...(opts.task ? { task: opts.task } : {}) },
      {
        timeout: opts.timeoutMs ?? this.session.timeout(),
        resetTimeoutOnProgress: true,
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.onProgress ? { onprogress: opts.onProgress } : {}),
      },
    );
    return result as CallToolResult;
  }

  /** For task-based calls: the live client, the tool as listed, the request timeout. */
  taskAccess(name: string): { client: Client; tool: Tool | undefined; timeout: number } {
    return {
      client: this.session.client(),
      tool: this.session.tools().find((t) => t.name === name),
      timeout: this.session.timeout(),
    };
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const client = this.session.client();
    return await client.readResource({ uri }, { timeout: this.session.timeout(), signal });
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    const client = this.session.client();
    return await client.getPrompt({ name, arguments: args }, { timeout: this.session.timeout() });
  }

  async complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: { arguments: Record<string, string> },
  ): Promise<CompletionValues> {
    const client = this.session.client();
    if (!client.getServerCapabilities()?.completions) return { values: [] };
    const res = await client.complete(
      { ref, argument, ...(context ? { context } : {}) },
      { timeout: this.session.timeout() },
    );
    return { values: res.completion.values, total: res.completion.total, hasMore: res.completion.hasMore };
  }

  /** The live session's era and what the server declared (subscriptions and log levels depend on both). */
  describe(): { era: 'legacy' | 'modern'; capabilities: ServerCapabilities } {
    const client = this.session.client();
    return { era: client.getProtocolEra() ?? 'legacy', capabilities: client.getServerCapabilities() ?? {} };
  }

  /** 2025 resources/subscribe. */
  async subscribeResource(uri: string): Promise<void> {
    await this.session.client().subscribeResource({ uri }, { timeout: this.session.timeout() });
  }

  /** 2025 resources/unsubscribe. */
  async unsubscribeResource(uri: string): Promise<void> {
    await this.session.client().unsubscribeResource({ uri }, { timeout: this.session.timeout() });
  }

  /** A 2026-07-28 subscriptions/listen stream for these resources (resolves on the server's acknowledgement). */
  listenResources(uris: string[]): Promise<McpSubscription> {
    return this.session.client().listen({ resourceSubscriptions: uris }, { timeout: this.session.timeout() });
  }

  /** 2025 logging/setLevel. */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    await this.session.client().setLoggingLevel(level, { timeout: this.session.timeout() });
  }
}
