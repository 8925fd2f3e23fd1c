import type { ServerState } from '../../../shared/domain/server-state.js';
import { toHostError } from '../util/errors.js';
import type { AuditLog } from './audit-log.js';

/**
 * Records a server's connection state changes. `connecting` is left out (every attempt
 * passes through it; the outcome is what matters), and so is `disabled` for a server that
 * was never up (a stop before the first start is not a disconnect).
 */
export function connectionAuditor(
  audit: AuditLog | undefined,
  serverId: string,
  transport: () => string,
): (state: ServerState) => void {
  let previous: ServerState['kind'] = 'disabled';
  return (state) => {
    const before = previous;
    previous = state.kind;
    if (!audit) return;
    switch (state.kind) {
      case 'connecting':
        return;
      case 'connected':
        audit.append({
          kind: 'connection',
          serverId,
          action: 'connected',
          details: {
            transport: transport(),
            era: state.info.protocolEra,
            ...(state.info.protocolVersion ? { protocolVersion: state.info.protocolVersion } : {}),
            server: { name: state.info.name, version: state.info.version },
          },
        });
        return;
      case 'failed':
        audit.append({
          kind: 'connection',
          serverId,
          action: 'failed',
          details: { code: state.error.code, error: state.error.message },
        });
        return;
      case 'reconnecting':
        audit.append({
          kind: 'connection',
          serverId,
          action: 'reconnecting',
          details: { attempt: state.attempt, code: state.lastError.code, error: state.lastError.message },
        });
        return;
      case 'disabled':
        if (before !== 'disabled')
          audit.append({ kind: 'connection', serverId, action: 'disconnected', details: { from: before } });
        return;
    }
  };
}

/**
 * Records one tools/call: a `call-start` with its (redacted) arguments, then `call-end`
 * with the outcome and duration. The result's content is never recorded: it is the
 * server's data, can be huge, and may echo secrets back (an env dump, say).
 */
export function auditToolCall(
  audit: AuditLog | undefined,
  serverId: string,
  tool: string,
  args: Record<string, unknown>,
  callId?: string,
  conversationId?: string,
  /** The tool whose app view asked for the call (absent: the model, a person, the CLI). */
  fromView?: string,
) {
  const started = Date.now();
  // The conversation rides on every record, so an Activity row can link back to its chat.
  const id = {
    ...(callId ? { callId } : {}),
    ...(conversationId ? { conversationId } : {}),
    ...(fromView ? { fromView } : {}),
  };
  audit?.append({ kind: 'tool-call', serverId, action: 'call-start', details: { tool, ...id, args } });
  return {
    ok(result: { isError?: boolean; content?: unknown[] }): void {
      audit?.append({
        kind: 'tool-call',
        serverId,
        action: 'call-end',
        details: {
          tool,
          ...id,
          isError: result.isError === true,
          durationMs: Date.now() - started,
          blocks: result.content?.length ?? 0,
        },
      });
    },
    failed(error: unknown): void {
      if (!audit) return;
      const e = toHostError(error);
      audit.append({
        kind: 'tool-call',
        serverId,
        action: 'call-error',
        details: { tool, ...id, code: e.code, error: e.message, durationMs: Date.now() - started },
      });
    },
  };
}
