import { randomUUID } from 'node:crypto';
import type {
  ChatEvent,
  ChatMessage,
  RunEnd,
  RunRetry,
  ToolCallRecord,
} from '../../../shared/domain/chat.js';
import type { CallToolResult } from '../../../shared/domain/mcp-types.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { addUsage, type TokenUsage } from '../../../shared/domain/metrics.js';
import type { PendingBroker } from '../pending/pending-broker.js';
import { toHostError } from '../util/errors.js';
import { functionResponse } from './model-history.js';
import { ProviderError, type ChatProvider, type ModelMessage, type ModelPart } from './provider.js';
import type { ToolOfferPlan } from './tool-offer.js';
import { approveToolCall } from '../policies/tool-approval.js';
import type { ToolPolicy } from '../policies/tool-policy.js';
import { inspectResult } from '../tool-trust/inspect-result.js';

export interface AgentRun {
  provider: ChatProvider;
  model: string;
  system?: string;
  /** The sampling temperature (absent: the provider's default). */
  temperature?: number;
  /** The conversation so far, ending with the new user message. Extended in place. */
  history: ModelMessage[];
  offer: ToolOfferPlan;
  maxTurns: number;
  signal: AbortSignal;
  conversationId: string;
  policy: ToolPolicy;
  broker: PendingBroker;
  callTool: (
    serverId: string,
    tool: string,
    args: Record<string, unknown>,
    opts: { callId: string; onProgress: (p: { progress: number; total?: number; message?: string }) => void },
  ) => Promise<CallToolResult>;
  cancelTool: (callId: string) => void;
  /** The argument strings that name paths outside the shared folders (absent: none are checked). */
  pathsOutsideRoots?: (args: Record<string, unknown>) => Promise<string[]>;
  emit: (event: ChatEvent) => void;
  /** An assistant message is complete (or cut short): persist it. */
  commit: (message: ChatMessage) => Promise<void>;
  /** A model turn reported its token usage (the provider's own numbers). */
  onUsage?: (usage: TokenUsage) => void;
  retry?: { attempts: number; baseMs: number };
}

const MAX_TURNS_NOTE =
  'You have reached the limit of tool-calling turns for this request. Do not call any more tools: answer now with the best result you can from what you already have, and say what is missing.';

/**
 * The provider-neutral agent loop: stream a model turn; run the tool calls it asked for in
 * parallel, each through the approval policy; feed the results (errors as errors) back; repeat
 * until the model answers without tools, the turn limit is hit (then one last turn with tools
 * off for a best-effort answer), or the run is stopped.
 */
export async function runAgent(run: AgentRun): Promise<{ reason: RunEnd; error?: HostError }> {
  for (let turn = 0; ; turn++) {
    const finalTurn = turn >= run.maxTurns;
    if (finalTurn) run.history.push({ role: 'user', parts: [{ type: 'text', text: MAX_TURNS_NOTE }] });
    const message: ChatMessage = {
      id: randomUUID(),
      role: 'assistant',
      parts: [],
      createdAt: Date.now(),
      model: run.model,
    };
    run.emit({ type: 'message-start', message: { ...message, parts: [] } });
    let calls: ToolCallRecord[];
    try {
      calls = await streamTurn(run, message, finalTurn);
    } catch (error) {
      if (run.signal.aborted) {
        await run.commit(message);
        return { reason: 'stopped' };
      }
      const hostError = providerError(error);
      message.error = hostError;
      await run.commit(message);
      return { reason: 'error', error: hostError };
    }
    if (run.signal.aborted) {
      await run.commit(message);
      return { reason: 'stopped' };
    }
    const parts = modelParts(message);
    if (parts.length) run.history.push({ role: 'model', parts });
    if (calls.length === 0) {
      await run.commit(message);
      return { reason: finalTurn ? 'max-turns' : 'done' };
    }
    await Promise.all(calls.map((call) => runToolCall(run, message, call)));
    await run.commit(message);
    run.history.push({ role: 'user', parts: calls.map(functionResponse) });
    if (run.signal.aborted) return { reason: 'stopped' };
  }
}

/** Stream one model turn into `message`, retrying transient failures that struck before any output. */
async function streamTurn(
  run: AgentRun,
  message: ChatMessage,
  finalTurn: boolean,
): Promise<ToolCallRecord[]> {
  const { attempts, baseMs } = run.retry ?? { attempts: 3, baseMs: 800 };
  announceOffer(run, message);
  for (let attempt = 0; ; attempt++) {
    const calls: ToolCallRecord[] = [];
    let produced = false;
    try {
      const stream = run.provider.stream({
        model: run.model,
        system: run.system,
        ...(run.temperature !== undefined ? { temperature: run.temperature } : {}),
        messages: run.history,
        tools: run.offer.tools,
        toolMode: finalTurn ? 'none' : 'auto',
        signal: run.signal,
      });
      for await (const ev of stream) {
        if (run.signal.aborted) break;
        if (ev.type === 'text' || ev.type === 'thinking') {
          produced = true;
          appendText(message, ev.type, ev.text);
          run.emit({
            type: ev.type === 'text' ? 'text-delta' : 'thinking-delta',
            messageId: message.id,
            text: ev.text,
          });
        } else if (ev.type === 'function_call') {
          produced = true;
          const call = newCall(run, ev.id, ev.name, ev.args, ev.signature);
          calls.push(call);
          message.parts.push({ type: 'tool_call', call });
          run.emit({ type: 'tool-call', messageId: message.id, call: { ...call } });
        } else if (ev.type === 'done' && ev.usage) {
          message.usage = addUsage(message.usage, ev.usage);
          run.onUsage?.(ev.usage);
        }
      }
      return calls;
    } catch (error) {
      if (run.signal.aborted) throw error;
      const retryable = error instanceof ProviderError ? error.retryable : isNetworkError(error);
      if (!retryable || produced || attempt + 1 >= attempts) throw error;
      const delay = baseMs * 2 ** attempt * (0.8 + Math.random() * 0.4);
      // One entry per distinct reason: the thread lists the retries under the one error, not the text three times.
      message.retries = noteRetry(message.retries, providerError(error).message, Date.now());
      run.emit({ type: 'retry', messageId: message.id, retries: message.retries.map((r) => ({ ...r })) });
      await sleep(delay, run.signal);
    }
  }
}

/** The report each run announced last, so an unchanged offer is not sent again. */
const lastAnnounced = new WeakMap<AgentRun, unknown>();

/** The offer this model request declares, on the message and to the UI, when it differs from the last one announced. */
function announceOffer(run: AgentRun, message: ChatMessage): void {
  const report = run.offer.report;
  if (!report) return;
  message.offer = report;
  if (lastAnnounced.get(run) === report) return;
  lastAnnounced.set(run, report);
  run.emit({ type: 'offer', messageId: message.id, offer: report });
}

function newCall(
  run: AgentRun,
  id: string,
  name: string,
  args: Record<string, unknown>,
  signature?: string,
): ToolCallRecord {
  if (run.offer.search && name === run.offer.search.name) {
    return {
      id: id || randomUUID(),
      serverId: '',
      tool: name,
      modelName: name,
      args: args ?? {},
      status: 'running',
      startedAt: Date.now(),
      host: 'tool-search',
      ...(signature ? { signature } : {}),
    };
  }
  const origin = run.offer.byName.get(name);
  const call: ToolCallRecord = {
    id: id || randomUUID(),
    serverId: origin?.serverId ?? '',
    tool: origin?.tool.name ?? name,
    modelName: name,
    args: args ?? {},
    status: 'running',
    startedAt: Date.now(),
    ...(signature ? { signature } : {}),
  };
  if (!origin) {
    call.status = 'error';
    call.error = {
      code: 'unknown_tool',
      message: `the model asked for "${name}", which is not an offered tool`,
    };
    call.endedAt = Date.now();
  }
  return call;
}

/** Policy, approval if needed, then the call itself; every outcome ends up on the record. */
async function runToolCall(run: AgentRun, message: ChatMessage, call: ToolCallRecord): Promise<void> {
  const update = () => run.emit({ type: 'tool-call', messageId: message.id, call: { ...call } });
  const finish = (status: ToolCallRecord['status']) => {
    call.status = status;
    call.endedAt = Date.now();
    update();
  };
  if (call.host === 'tool-search' && run.offer.search) {
    // The host's own search: it reads the index and declares tools, nothing leaves the host.
    try {
      call.result = await run.offer.search.run(call.args);
      finish(call.result.isError ? 'error' : 'done');
    } catch (error) {
      call.error = toHostError(error);
      finish('error');
    }
    return;
  }
  const origin = run.offer.byName.get(call.modelName);
  if (!origin) return;
  // Checked on every call, before trust: a trusted server still asks to go outside the shared folders.
  const outside = (await run.pathsOutsideRoots?.(call.args)) ?? [];
  const approval = await approveToolCall({
    policy: run.policy,
    broker: run.broker,
    serverId: origin.serverId,
    tool: origin.tool,
    args: call.args,
    callId: call.id,
    conversationId: run.conversationId,
    outsideRoots: outside,
    ...(origin.warnings ? { warnings: origin.warnings } : {}),
    signal: run.signal,
    onAsk: () => {
      call.status = 'awaiting-approval';
      update();
    },
  });
  if (!approval.allowed) {
    // It never ran: the time it waited was the person's, not the tool's (the card says so apart).
    if (call.status === 'awaiting-approval') {
      const now = Date.now();
      call.approvalWaitMs = now - call.startedAt;
      call.startedAt = now;
    }
    if (approval.settlement === 'cancelled') return finish('cancelled');
    if (approval.settlement === 'timeout')
      call.error = { code: 'approval_timeout', message: 'nobody answered the approval in time' };
    return finish('denied');
  }
  call.approval = approval.how;
  if (approval.asked) {
    // The call's time starts now: the wait for a person is shown apart, not as the tool's duration.
    const now = Date.now();
    call.approvalWaitMs = now - call.startedAt;
    call.startedAt = now;
  }
  if (run.signal.aborted) return finish('cancelled');
  call.status = 'running';
  update();
  const onAbort = () => run.cancelTool(call.id);
  run.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await run.callTool(origin.serverId, origin.tool.name, call.args, {
      callId: call.id,
      onProgress: (p) => {
        call.progress = p;
        update();
      },
    });
    call.result = result;
    // Data, not orders: the model still gets the result as tool output; the card flags what looks injected.
    const warnings = inspectResult(result);
    if (warnings.length > 0) call.warnings = warnings;
    finish(result.isError ? 'error' : 'done');
  } catch (error) {
    call.error = toHostError(error);
    finish(run.signal.aborted ? 'cancelled' : 'error');
  } finally {
    run.signal.removeEventListener('abort', onAbort);
  }
}

/** Adds one retry to `retries`, folding a reason that struck before into its entry. */
export function noteRetry(retries: readonly RunRetry[] | undefined, reason: string, at: number): RunRetry[] {
  const list = (retries ?? []).map((r) => ({ ...r }));
  const same = list.find((r) => r.message === reason);
  if (same) {
    same.count += 1;
    same.lastAt = at;
  } else list.push({ message: reason, count: 1, lastAt: at });
  return list;
}

function appendText(message: ChatMessage, kind: 'text' | 'thinking', text: string): void {
  const last = message.parts[message.parts.length - 1];
  if (last && last.type === kind) last.text += text;
  else message.parts.push({ type: kind, text });
}

function modelParts(message: ChatMessage): ModelPart[] {
  const parts: ModelPart[] = [];
  for (const p of message.parts) {
    if (p.type === 'text' && p.text) parts.push({ type: 'text', text: p.text });
    if (p.type === 'tool_call') {
      parts.push({
        type: 'function_call',
        id: p.call.id,
        name: p.call.modelName,
        args: p.call.args,
        ...(p.call.signature ? { signature: p.call.signature } : {}),
      });
    }
  }
  return parts;
}

function providerError(error: unknown): HostError {
  if (error instanceof ProviderError)
    return { code: error.retryable ? 'model_unavailable' : 'model_error', message: error.message };
  return toHostError(error);
}

function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // fetch reports the socket's failure (ECONNREFUSED and the like) only in its cause.
  const cause = (error as { cause?: unknown }).cause;
  const msg = `${error.message} ${cause instanceof Error ? cause.toString() : typeof cause === 'string' ? cause : ''}`;
  return /fetch failed|ECONNRESET|ECONNREFUSED|ETIMEDOUT|socket hang up|network/i.test(msg);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });
}
