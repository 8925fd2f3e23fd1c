import { randomUUID } from 'node:crypto';
import type {
  ChatEvent,
  ChatFile,
  ChatMessage,
  ChatSettings,
  Conversation,
  ConversationMatch,
  ConversationModelSettings,
  ConversationSummary,
  MessageOrigin,
  RunEnd,
  ToolOffer,
  ToolSwitches,
} from '../../../shared/domain/chat.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { addUsage } from '../../../shared/domain/metrics.js';
import type { HostEvents } from '../host-events.js';
import type { McpHost } from '../mcp-host.js';
import type { MetricsRecorder } from '../metrics/metrics-recorder.js';
import type { PendingBroker } from '../pending/pending-broker.js';
import { pathsOutsideRoots } from '../roots/argument-paths.js';
import type { RootLike } from '../roots/root-guard.js';
import type { ConversationStore } from '../stores/conversation-store.js';
import type { SettingsStore } from '../stores/settings-store.js';
import { HostFailure, toHostError } from '../util/errors.js';
import { runAgent } from './agent-loop.js';
import { addViewContext, fileIdsOf, toModelHistory } from './model-history.js';
import { filesFor, readFiles, type ChatFileStore } from './chat-files.js';
import { runModelSettings, saveModelSettings, type ModelSettingsChange } from './model-settings.js';
import { ProviderFactory } from './provider-factory.js';
import type { OfferOverrides } from '../../../shared/domain/tool-selection.js';
import type { OfferPlanner } from './tool-offer.js';
import { mergeOfferOverrides, offerSummary } from './offer-summary.js';
import { AllowedCalls } from './allowed-calls.js';
import { searchConversations } from './conversation-search.js';
import {
  assertSomethingToSend,
  editedUserMessage,
  readAttachment,
  systemPrompt,
  titleFrom,
  userMessage,
  userTurnOf,
} from './user-turns.js';
import { effectiveSettings, mergeSwitches } from './tool-switches.js';
import type { FlowGuard } from '../policies/flow-guard.js';
import type { ToolPolicy } from '../policies/tool-policy.js';

export interface ChatServiceDeps {
  host: McpHost;
  events: HostEvents;
  broker: PendingBroker;
  conversations: ConversationStore;
  settings: SettingsStore;
  providers: ProviderFactory;
  policy: ToolPolicy;
  /** Which tools each model request declares (tool-selection/: the index, ranking and the bounded offer). */
  selection: OfferPlanner;
  /** The flow guard: what untrusted content each conversation took in (absent: not tracked). */
  flows?: FlowGuard;
  /** The folders shared with servers: tool arguments naming paths outside them always ask (absent: nothing is checked). */
  roots?: () => readonly RootLike[];
  /** Where model token usage is counted across conversations (absent: only on the conversation). */
  metrics?: MetricsRecorder;
  /** What the conversation's open app views last reported, for its next model turn (absent: none). */
  viewContext?: (conversationId: string) => string[];
  /** Where attached local files are kept (their bytes go to the model with each turn). */
  files: ChatFileStore;
}

interface ActiveRun {
  runId: string;
  controller: AbortController;
  done: Promise<{ reason: RunEnd; error?: HostError }>;
}

const DEFAULT_TITLE = 'New chat';

/**
 * Conversations and their runs: one run at a time per conversation, its events fanned out
 * to the UI, every finished step saved (atomically) as it happens, so a crash loses only
 * the step in flight.
 */
export class ChatService {
  private readonly runs = new Map<string, ActiveRun>();
  private readonly listeners = new Set<(conversationId: string, event: ChatEvent) => void>();
  /** Tool calls that ran allowed, for the App views that show their results. */
  readonly allowedCalls: AllowedCalls;

  constructor(private readonly deps: ChatServiceDeps) {
    this.allowedCalls = new AllowedCalls((id) => deps.conversations.get(id));
  }

  async list(): Promise<ConversationSummary[]> {
    return (await this.deps.conversations.list()).map((s) => this.withRun(s));
  }

  /** A copy of the conversation (the store's object stays the store's), marked if a run is active. */
  async get(id: string): Promise<Conversation> {
    return this.withRun(structuredClone(await this.deps.conversations.get(id)));
  }

  private withRun<T extends { id: string; activeRunId?: string }>(item: T): T {
    const run = this.runs.get(item.id);
    return run ? { ...item, activeRunId: run.runId } : item;
  }

  async create(title?: string): Promise<Conversation> {
    const c = await this.deps.conversations.create(title?.trim() || DEFAULT_TITLE);
    await this.emitList();
    return c;
  }

  async rename(id: string, title: string): Promise<ConversationSummary> {
    const s = await this.deps.conversations.rename(id, title.trim());
    await this.emitList();
    return s;
  }

  async delete(id: string): Promise<void> {
    await this.stop(id);
    await this.runs.get(id)?.done;
    await this.deps.conversations.delete(id);
    this.deps.policy.forgetConversation(id);
    this.deps.flows?.forgetConversation(id);
    await this.emitList();
  }

  /** Observe chat events in-process (the CLI). */
  onEvent(listener: (conversationId: string, event: ChatEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** What the next turn would offer the model (in `conversationId`, with its own switches). */
  async toolOffer(conversationId?: string): Promise<ToolOffer> {
    const settings = await this.effectiveSettings(conversationId);
    const conversation =
      conversationId === undefined ? undefined : await this.deps.conversations.get(conversationId);
    return offerSummary(this.deps.selection, settings, conversation);
  }

  /** One conversation's own tool budget (mode, tools, tokens); `null` fields return to the chat settings. */
  async setOfferSettings(
    conversationId: string,
    change: { [K in keyof OfferOverrides]?: OfferOverrides[K] | null },
  ): Promise<OfferOverrides> {
    const conversation = await this.deps.conversations.get(conversationId);
    const next = mergeOfferOverrides(conversation.offerSettings, change);
    if (next) conversation.offerSettings = next;
    else delete conversation.offerSettings;
    await this.deps.conversations.save(conversation);
    return conversation.offerSettings ?? {};
  }

  /** One conversation's own system prompt and temperature; `null` fields return to the chat settings. */
  setModelSettings(conversationId: string, change: ModelSettingsChange): Promise<ConversationModelSettings> {
    return saveModelSettings(this.deps.conversations, conversationId, change);
  }

  /** Keep a local file for a message about to be sent (checked: type, size, contents). */
  attachFile(name: string, mimeType: string, base64: string): Promise<ChatFile> {
    return this.deps.files.put(name, mimeType, Buffer.from(base64, 'base64'));
  }

  /** Turn servers or tools on or off for one conversation (`null`: back to the chat settings). */
  async setToolSwitches(
    conversationId: string,
    change: { servers?: Record<string, boolean | null>; tools?: Record<string, boolean | null> },
  ): Promise<ToolSwitches> {
    const conversation = await this.deps.conversations.get(conversationId);
    const next = mergeSwitches(conversation.toolSwitches, change, this.deps.settings.get());
    if (next) conversation.toolSwitches = next;
    else delete conversation.toolSwitches;
    await this.deps.conversations.save(conversation);
    return next ?? {};
  }

  /** Stored conversations whose title or messages contain `query`. */
  search(query: string): Promise<ConversationMatch[]> {
    return searchConversations(this.deps.conversations, query);
  }

  /** Add the person's message (or an app view's: `origin`) and start a run; resolves once the run has started. */
  async send(
    conversationId: string,
    text: string,
    attachments: { serverId: string; uri: string }[] = [],
    origin?: MessageOrigin,
    fileIds: readonly string[] = [],
  ): Promise<{ runId: string; done: ActiveRun['done'] }> {
    this.assertIdle(conversationId);
    assertSomethingToSend(text, attachments.length + fileIds.length);
    const files = filesFor(this.deps.files, fileIds);
    const conversation = await this.deps.conversations.get(conversationId);
    const attached = await Promise.all(
      attachments.map((a) => readAttachment(this.deps.host, a.serverId, a.uri)),
    );
    const message = userMessage(text, attached, origin, files);
    conversation.messages.push(message);
    if (conversation.title === DEFAULT_TITLE && text.trim()) conversation.title = titleFrom(text);
    return this.startRun(conversation, message);
  }

  /**
   * Run again from a message: a user message's turn, or the user turn an assistant message
   * answered. Everything after that user message is dropped (stored too) and answered anew.
   */
  async retry(
    conversationId: string,
    messageId: string,
  ): Promise<{ runId: string; done: ActiveRun['done'] }> {
    this.assertIdle(conversationId);
    const conversation = await this.deps.conversations.get(conversationId);
    const at = userTurnOf(conversation.messages, messageId);
    const userMessage = conversation.messages[at];
    conversation.messages.splice(at + 1);
    return this.startRun(conversation, userMessage);
  }

  /** Replace a user message's text (its attachments stay), drop the turns after it, and answer it again. */
  async edit(
    conversationId: string,
    messageId: string,
    text: string,
  ): Promise<{ runId: string; done: ActiveRun['done'] }> {
    this.assertIdle(conversationId);
    const conversation = await this.deps.conversations.get(conversationId);
    const at = conversation.messages.findIndex((m) => m.id === messageId);
    const message = editedUserMessage(conversation.messages[at], text);
    conversation.messages.splice(at, conversation.messages.length - at, message);
    return this.startRun(conversation, message);
  }

  private assertIdle(conversationId: string): void {
    if (this.runs.has(conversationId))
      throw new HostFailure('run_active', 'this conversation is still answering: stop it or wait');
  }

  private async startRun(
    conversation: Conversation,
    userMessage: ChatMessage,
  ): Promise<{ runId: string; done: ActiveRun['done'] }> {
    const conversationId = conversation.id;
    await this.deps.conversations.save(conversation);
    const runId = randomUUID();
    const controller = new AbortController();
    this.emit(conversationId, { type: 'run-start', runId, userMessage });
    const done = this.execute(conversation, runId, controller);
    const run: ActiveRun = { runId, controller, done };
    this.runs.set(conversationId, run);
    void done.finally(() => {
      if (this.runs.get(conversationId) === run) this.runs.delete(conversationId);
    });
    // After the run is registered, so the list names it as the conversation's activeRunId.
    await this.emitList();
    return { runId, done };
  }

  /** The chat settings as a conversation sees them (its own switches over them); none named: the settings. */
  async effectiveSettings(conversationId: string | undefined): Promise<ChatSettings> {
    const settings = this.deps.settings.get();
    if (conversationId === undefined) return settings;
    const conversation = await this.deps.conversations.get(conversationId);
    return effectiveSettings(settings, conversation.toolSwitches);
  }

  /**
   * Stop a run: the stream, its pending approvals and its in-flight tool calls. Cancelling a
   * call also settles the sampling and elicitation it caused (ServerCalls.cancel); the sweep
   * below catches any of those still waiting here, so nothing of the run is left waiting.
   */
  async stop(conversationId: string): Promise<boolean> {
    const run = this.runs.get(conversationId);
    if (!run) return false;
    run.controller.abort();
    this.deps.broker.cancelWhere((r) =>
      r.kind === 'tool-approval'
        ? r.conversationId === conversationId
        : r.origin?.conversationId === conversationId,
    );
    return true;
  }

  async dispose(): Promise<void> {
    const active = [...this.runs.keys()];
    await Promise.all(active.map((id) => this.stop(id)));
    await Promise.all([...this.runs.values()].map((r) => r.done.catch(() => undefined)));
    await this.deps.conversations.flush();
  }

  private async execute(conversation: Conversation, runId: string, controller: AbortController) {
    const id = conversation.id;
    let outcome: { reason: RunEnd; error?: HostError };
    try {
      const settings = effectiveSettings(this.deps.settings.get(), conversation.toolSwitches);
      const provider = await this.deps.providers.create(settings);
      const offer = await this.deps.selection.planRun({
        settings,
        ...(conversation.offerSettings ? { overrides: conversation.offerSettings } : {}),
        cap: provider.maxTools,
        messages: conversation.messages,
      });
      const catalog = this.deps.host.catalog();
      // Untrusted content already in the conversation (also across a restart) holds its later sink calls.
      this.deps.flows?.seed(id, conversation.messages, catalog.tools);
      for (const w of offer.warnings) this.emit(id, { type: 'notice', text: w });
      const model = ProviderFactory.modelOf(settings);
      const { userPrompt, temperature } = runModelSettings(conversation, settings);
      const files = await readFiles(this.deps.files, fileIdsOf(conversation.messages));
      outcome = await runAgent({
        provider,
        model,
        system: systemPrompt(this.deps.host, userPrompt),
        ...(temperature !== undefined ? { temperature } : {}),
        history: addViewContext(
          toModelHistory(conversation.messages, files),
          this.deps.viewContext?.(id) ?? [],
        ),
        offer,
        maxTurns: settings.maxTurns,
        signal: controller.signal,
        conversationId: id,
        policy: this.deps.policy,
        broker: this.deps.broker,
        // The conversation rides along so what the call's server asks meanwhile shows in this chat.
        callTool: async (serverId, tool, args, opts) => {
          const result = await this.deps.host.callTool(serverId, tool, args, { ...opts, conversationId: id });
          // Looked up at call time: a tool search may have declared a tool the run began without.
          const def = this.deps.host
            .catalog()
            .tools.find((t) => t.serverId === serverId && t.tool.name === tool)?.tool;
          this.deps.flows?.noteResult(id, serverId, def, tool, opts.callId, result);
          return result;
        },
        cancelTool: (callId) => void this.deps.host.cancel(callId),
        pathsOutsideRoots: (args) => pathsOutsideRoots(args, this.deps.roots?.() ?? []),
        emit: (event) => this.emit(id, event),
        onUsage: (usage) => {
          conversation.usage = addUsage(conversation.usage, usage);
          this.deps.metrics?.modelUsage(provider.id, model, usage);
        },
        commit: async (message) => {
          const i = conversation.messages.findIndex((m) => m.id === message.id);
          const copy = structuredClone(message);
          if (i >= 0) conversation.messages[i] = copy;
          else conversation.messages.push(copy);
          await this.deps.conversations.save(conversation);
        },
      });
    } catch (error) {
      outcome = { reason: 'error', error: toHostError(error) };
      // Failures before the first model turn (no key, no provider) still leave a trace in the thread.
      const message: ChatMessage = {
        id: randomUUID(),
        role: 'assistant',
        parts: [],
        createdAt: Date.now(),
        error: outcome.error,
      };
      conversation.messages.push(message);
    }
    if (controller.signal.aborted && outcome.reason !== 'error') outcome = { reason: 'stopped' };
    await this.deps.conversations.save(conversation).catch(() => undefined);
    // The run is over before anyone hears so: its run-end and the list after it must not name it as active.
    if (this.runs.get(id)?.runId === runId) this.runs.delete(id);
    this.emit(id, {
      type: 'run-end',
      runId,
      reason: outcome.reason,
      ...(outcome.error ? { error: outcome.error } : {}),
    });
    await this.emitList().catch(() => undefined);
    return outcome;
  }

  private emit(conversationId: string, event: ChatEvent): void {
    if (event.type === 'tool-call') this.allowedCalls.note(conversationId, event.call);
    this.deps.events.emit('chat.event', { conversationId, event });
    for (const l of this.listeners) l(conversationId, event);
  }

  private async emitList(): Promise<void> {
    if (this.deps.events.hasListeners('chat.listChanged'))
      this.deps.events.emit('chat.listChanged', await this.list());
  }
}
