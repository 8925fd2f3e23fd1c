import {
  ProtocolError,
  ProtocolErrorCode,
  type CreateMessageRequest,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
} from '@modelcontextprotocol/client';
import type { ChatSettings, ProviderId } from '../../../shared/domain/chat.js';
import type { PendingResponse, RequestOrigin } from '../../../shared/domain/pending.js';
import type { ChatProvider, ModelTool } from '../chat/provider.js';
import { abortReason, type NewRequest, type PendingBroker } from '../pending/pending-broker.js';
import type { Attribution } from '../servers/call-origins.js';
import { toHostError } from '../util/errors.js';
import { chooseModel, type ModelChoice } from './model-choice.js';
import { RateLimiter } from './rate-limiter.js';
import { applyEdits, toModelMessages, toViews, type SamplingMessageIn } from './sampling-content.js';
import type { SamplingConsentStore } from '../policies/sampling-consent-store.js';
import { checkParams, type Checked } from './sampling-params.js';

/** What a sampling request gets back: plain, or with tool_use blocks when tools were offered. */
export type SamplingResult = CreateMessageResult | CreateMessageResultWithTools;

/** What the service needs: the queue, chat settings (default model), providers, consent. */
export interface SamplingServiceDeps {
  broker: PendingBroker;
  settings: { get(): ChatSettings };
  providers: { create(settings: ChatSettings, provider?: ProviderId): Promise<ChatProvider> };
  consent: SamplingConsentStore;
  /** Default: 10 requests per minute per server. */
  limiter?: RateLimiter;
  /** How long each review waits for a person. */
  timeoutMs?: number;
}

/** JSON-RPC code the spec gives for "User rejected sampling request". */
export const USER_REJECTED = -1;
type Answer = Extract<PendingResponse, { kind: 'sampling' }>;

/**
 * Answers servers' sampling/createMessage (pushed in the 2025 era, or an input_required
 * round in 2026-07-28; the SDK routes both to one handler). Consent per server, a rate limit,
 * a person's review of the request (editable) and of the reply (editable, unless skipped),
 * then the configured provider. Every path ends in a result or a JSON-RPC error to the server.
 *
 * Sampling with tools: the spec's shape (CreateMessageResult with `tool_use` content and
 * `stopReason: "toolUse"`, then a follow-up request from the server carrying `tool_result`)
 * makes the SERVER run its own tools: the tools in the request are the server's, not ones this
 * host could call, so the host never runs them inside the request. The issue's "tool loop
 * inside the request, with the same approval policy as chat" therefore reads, on the host
 * side, as: each round of that loop is a separate sampling request, and each is reviewed
 * under the same consent policy (ask / session / always / never) as every other request.
 */
export class SamplingService {
  /** Aborts every request of this service at once (dispose). */
  private readonly closing = new AbortController();
  private readonly limiter: RateLimiter;
  private readonly knownModels = new Map<ProviderId, Promise<string[]>>();

  constructor(private readonly deps: SamplingServiceDeps) {
    this.limiter = deps.limiter ?? new RateLimiter();
  }

  /**
   * The `handlers.sample` of every connection. `cause` is the tool call that made the server
   * ask: its reviews carry it (so they show where that call is), and stopping it refuses them.
   */
  async handle(
    serverId: string,
    params: CreateMessageRequest['params'],
    signal?: AbortSignal,
    cause?: Attribution,
  ): Promise<SamplingResult> {
    const standing = this.deps.consent.get(serverId);
    if (standing.consent === 'never')
      throw rejected(`${USER_REJECTED_TEXT}: sampling is turned off for this server`);
    const waitMs = this.limiter.take(serverId);
    if (waitMs > 0) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `Sampling rate limit exceeded for server "${serverId}": at most ${this.limiter.capacity} requests per ${Math.round(this.limiter.perMs / 1000)} s; try again in ${Math.ceil(waitMs / 1000)} s`,
      );
    }
    const checked = checkParams(params);
    // Held at the broker, so a server that goes away cancels the model call too, not only the reviews.
    const signals = [signal, this.closing.signal, cause?.signal].filter((s) => s !== undefined);
    const hold = this.deps.broker.hold(serverId, AbortSignal.any(signals));
    try {
      return await this.run(serverId, checked, standing, hold.signal, cause?.origin);
    } finally {
      hold.release();
    }
  }

  /** Cancel every request of this service still in flight (the host is shutting down). */
  dispose(): void {
    this.closing.abort();
  }

  private async run(
    serverId: string,
    c: Checked,
    standing: { consent: string; skipReplyReview: boolean },
    signal: AbortSignal,
    origin: RequestOrigin | undefined,
  ): Promise<SamplingResult> {
    const from = origin ? { origin } : {};
    const settings = this.deps.settings.get();
    const suggestedModel = chooseModel(
      settings,
      c.modelPreferences?.hints,
      c.modelPreferences?.hints?.length ? await this.models(settings, signal) : [],
    );
    const { parsed, toolChoice, ...shown } = c;
    let messages = parsed;
    let system = c.systemPrompt;
    let model: ModelChoice = suggestedModel;
    let skipReply = standing.skipReplyReview;

    if (standing.consent === 'ask') {
      const answer = await this.ask(
        { kind: 'sampling', serverId, stage: 'request', ...shown, suggestedModel, ...from },
        signal,
      );
      // Only a remembered choice that agrees with the answer counts: "always" on a denial
      // (or "never" on an approval) is a slip of the UI, not consent.
      const remember =
        answer.action === 'deny'
          ? answer.remember === 'never'
            ? 'never'
            : undefined
          : answer.remember === 'never'
            ? undefined
            : answer.remember;
      if (remember) await this.deps.consent.setConsent(serverId, remember);
      if (answer.skipReplyReview) {
        skipReply = true;
        await this.deps.consent.setSkipReplyReview(serverId, true);
      }
      if (answer.action === 'deny') throw rejected(USER_REJECTED_TEXT);
      if (answer.messages) messages = applyEdits(parsed, answer.messages);
      if (answer.systemPrompt !== undefined) system = answer.systemPrompt;
      if (answer.model) model = answer.model;
    }

    const reply = await this.generate(settings, model, messages, system, c, toolChoice, signal);
    let text = reply.text;
    if (!skipReply) {
      const answer = await this.ask(
        {
          kind: 'sampling',
          serverId,
          stage: 'reply',
          ...shown,
          messages: toViews(messages),
          ...(system !== undefined ? { systemPrompt: system } : {}),
          suggestedModel: model,
          reply: { model: model.model, text: describeReply(reply), stopReason: reply.stopReason },
          ...from,
        },
        signal,
      );
      if (answer.skipReplyReview) await this.deps.consent.setSkipReplyReview(serverId, true);
      if (answer.action === 'deny') throw rejected(`${USER_REJECTED_TEXT}: the reply was not approved`);
      if (answer.replyText !== undefined) text = answer.replyText;
    }
    if (reply.calls.length) {
      return {
        role: 'assistant',
        model: model.model,
        stopReason: 'toolUse',
        content: [
          ...(text ? [{ type: 'text' as const, text }] : []),
          ...reply.calls.map((k) => ({ type: 'tool_use' as const, id: k.id, name: k.name, input: k.args })),
        ],
      };
    }
    return {
      role: 'assistant',
      model: model.model,
      stopReason: reply.stopReason,
      content: { type: 'text', text },
    };
  }

  /** One review; an unanswered one (timeout, server gone, shutdown) is an error to the server. */
  private async ask(request: NewRequest<'sampling'>, signal: AbortSignal): Promise<Answer> {
    const answer = await this.deps.broker.request<'sampling'>(request, {
      ...(this.deps.timeoutMs !== undefined ? { timeoutMs: this.deps.timeoutMs } : {}),
      signal,
    });
    if (answer === 'timeout') throw rejected(`${USER_REJECTED_TEXT}: nobody answered the review in time`);
    if (answer === 'cancelled')
      throw rejected(`${USER_REJECTED_TEXT}: ${abortReason(signal) ?? 'the review was cancelled'}`);
    return answer;
  }

  private async generate(
    settings: ChatSettings,
    model: ModelChoice,
    messages: SamplingMessageIn[],
    system: string | undefined,
    c: Checked,
    toolChoice: Checked['toolChoice'],
    signal: AbortSignal,
  ) {
    let provider: ChatProvider;
    try {
      provider = await this.deps.providers.create(settings, model.provider);
    } catch (error) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `The host has no model available for sampling: ${toHostError(error).message}`,
      );
    }
    const tools: ModelTool[] = (c.tools ?? []).map((t) => ({
      name: t.name,
      description: t.description ?? '',
      inputSchema: t.inputSchema ?? { type: 'object' },
    }));
    let text = '';
    let finishReason: string | undefined;
    const calls: { id: string; name: string; args: Record<string, unknown> }[] = [];
    try {
      for await (const ev of provider.stream({
        model: model.model,
        ...(system ? { system } : {}),
        messages: toModelMessages(messages),
        tools,
        ...(toolChoice ? { toolMode: toolChoice } : {}),
        maxTokens: c.maxTokens,
        ...(c.temperature !== undefined ? { temperature: c.temperature } : {}),
        ...(c.stopSequences?.length ? { stopSequences: c.stopSequences } : {}),
        signal,
      })) {
        if (ev.type === 'text') text += ev.text;
        else if (ev.type === 'function_call') calls.push({ id: ev.id, name: ev.name, args: ev.args });
        else if (ev.type === 'done') finishReason = ev.finishReason;
      }
    } catch (error) {
      if (signal.aborted)
        throw rejected(`${USER_REJECTED_TEXT}: ${abortReason(signal) ?? 'the request was cancelled'}`);
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `Sampling failed: ${toHostError(error).message}`,
      );
    }
    return { text, calls, stopReason: calls.length ? 'toolUse' : stopReasonOf(finishReason) };
  }

  /** The provider's model list, fetched once and only when a request carries hints. */
  private models(settings: ChatSettings, signal: AbortSignal): Promise<string[]> {
    let known = this.knownModels.get(settings.provider);
    if (!known) {
      known = this.deps.providers
        .create(settings)
        .then((p) => p.listModels(AbortSignal.any([signal, AbortSignal.timeout(5000)])))
        .catch(() => []);
      this.knownModels.set(settings.provider, known);
      // A failed lookup is retried next time rather than remembered as "no models".
      void known.then((list) => {
        if (!list.length) this.knownModels.delete(settings.provider);
      });
    }
    return known;
  }
}

const USER_REJECTED_TEXT = 'User rejected sampling request';

function rejected(message: string): ProtocolError {
  return new ProtocolError(USER_REJECTED, message);
}

/** What the reviewer sees as the reply: the text, and any tool calls the model wants. */
function describeReply(reply: {
  text: string;
  calls: { name: string; args: Record<string, unknown> }[];
}): string {
  const calls = reply.calls.map((k) => `[tool call ${k.name} ${JSON.stringify(k.args)}]`);
  return [reply.text, ...calls].filter(Boolean).join('\n');
}

/** Provider finish reasons in the spec's words; unknown ones pass through (the field is open). */
function stopReasonOf(finish: string | undefined): string {
  switch (finish?.toUpperCase()) {
    case undefined:
    case 'STOP':
      return 'endTurn';
    case 'MAX_TOKENS':
    case 'LENGTH':
      return 'maxTokens';
    default:
      return finish ?? 'endTurn';
  }
}
