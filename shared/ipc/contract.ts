import type { z } from 'zod';
import type { CatalogSnapshot } from '../domain/catalog.js';
import type { AppSettingsState } from '../domain/app-settings.js';
import type { ChatEvent, ChatSettings, ConversationSummary } from '../domain/chat.js';
import type { PendingRequest } from '../domain/pending.js';
import type { PermissionsSnapshot } from '../domain/permissions.js';
import type { LogLine, ServerSummary, TraceEntry } from '../domain/server-state.js';
import { appChannels, type RootEntry } from './channels/app-channels.js';
import { appSettingsChannels } from './channels/app-settings-channels.js';
import { catalogChannels, type ToolProgress } from './channels/catalog-channels.js';
import { typed } from './channels/channel-kit.js';
import { chatChannels } from './channels/chat-channels.js';
import { flowChannels } from './channels/flow-channels.js';
import { importChannels } from './channels/import-channels.js';
import { mcpAppChannels } from './channels/mcp-app-channels.js';
import { metricsChannels } from './channels/metrics-channels.js';
import { pendingChannels } from './channels/pending-channels.js';
import { permissionChannels } from './channels/permission-channels.js';
import { registryChannels } from './channels/registry-channels.js';
import { serverChannels } from './channels/server-channels.js';
import { settingsChannels } from './channels/settings-channels.js';
import { subscriptionChannels, type ResourceUpdated } from './channels/subscription-channels.js';
import { taskChannels } from './channels/task-channels.js';
import { bundleChannels } from './channels/bundle-channels.js';
import { dryRunChannels } from './channels/dry-run-channels.js';
import { toolPinChannels } from './channels/tool-pin-channels.js';
import { toolSelectionChannels } from './channels/tool-selection-channels.js';
import { diagnosticsChannels } from './channels/diagnostics-channels.js';
import type { BundleOffer } from '../domain/bundles.js';
import type { ToolTask } from '../domain/tasks.js';
import type { EventName } from './event-names.js';

export type { HostInfo, RootEntry, RootsAddResult } from './channels/app-channels.js';
export type { CompletionValues, ToolProgress } from './channels/catalog-channels.js';
export type { ImportResult } from './channels/server-channels.js';
export type { ImportApplyResult, ImportedServer, ImportScanResult } from './channels/import-channels.js';
export type {
  LogLevel,
  LogLevelState,
  ResourceSubscriptionInfo,
  ResourceUpdated,
  SubscribeOutcome,
} from './channels/subscription-channels.js';

/**
 * The one contract between the renderer and the host: the map of every channel. Every request
 * channel names its request schema (validated by the host on every call, whichever bridge it
 * came through) and its response type, grouped by domain in shared/ipc/channels/; every event
 * channel names its payload type. The preload and the WebSocket bridge both implement HostApi
 * from this file, and nothing else crosses.
 */

/** Every request channel, with its request schema and response type. */
export const requestChannels = {
  ...appChannels,
  ...serverChannels,
  ...catalogChannels,
  ...toolSelectionChannels,
  ...chatChannels,
  ...settingsChannels,
  ...pendingChannels,
  ...metricsChannels,
  ...permissionChannels,
  ...appSettingsChannels,
  ...mcpAppChannels,
  ...subscriptionChannels,
  ...taskChannels,
  ...registryChannels,
  ...bundleChannels,
  ...dryRunChannels,
  ...importChannels,
  ...toolPinChannels,
  ...flowChannels,
  ...diagnosticsChannels,
} as const;

/** Every event channel, with its payload type. */
export const eventChannels = {
  /** The full server list, sent whenever any server's config or state changes. */
  'servers.changed': typed<ServerSummary[]>(),
  /** The full catalog, sent whenever any server's tools, resources or prompts change. */
  'catalog.changed': typed<CatalogSnapshot>(),
  /** New log lines and trace entries of one server, batched. */
  'server.output': typed<{ id: string; log: LogLine[]; trace: TraceEntry[] }>(),
  'tool.progress': typed<ToolProgress>(),
  /** One step of a chat run. */
  'chat.event': typed<{ conversationId: string; event: ChatEvent }>(),
  /** The conversation list changed (created, renamed, deleted, new messages). */
  'chat.listChanged': typed<ConversationSummary[]>(),
  /** The queue of requests waiting on a person. */
  'pending.changed': typed<PendingRequest[]>(),
  'settings.changed': typed<ChatSettings>(),
  /** Appearance or the quick-ask shortcut changed (any window). */
  'appSettings.changed': typed<AppSettingsState>(),
  /** The shared folders changed (any window, the CLI's --root, or a file reload); the full list. */
  'roots.changed': typed<RootEntry[]>(),
  /** A window asked for a conversation to be shown in the main window. */
  'app.showConversation': typed<{ conversationId: string }>(),
  /** Standing permissions changed (granted, revoked, trust switched, a server removed); the full list. */
  'permissions.changed': typed<PermissionsSnapshot>(),
  /** A live resource changed on its server (see resources.subscribe); coalesced per resource. */
  'resources.updated': typed<ResourceUpdated>(),
  /** Tool calls running as server-side tasks changed (started, status, ended); running and recent, newest first. */
  'tasks.changed': typed<ToolTask[]>(),
  /** The OS handed the app an `mcp-desk://install?…` link: show its install preview (the person confirms). */
  'deepLink.opened': typed<{ url: string }>(),
  /** A .mcpb opened from outside the window (file manager, deep link): show its install preview. */
  'bundles.offered': typed<BundleOffer>(),
} as const;

export type RequestChannel = keyof typeof requestChannels;
export type EventChannel = keyof typeof eventChannels;
/** What the renderer sends on a channel (before host-side parsing). */
export type RequestOf<C extends RequestChannel> = z.input<(typeof requestChannels)[C]['request']>;
/** What the host handler receives after validation. */
export type ParsedRequestOf<C extends RequestChannel> = z.output<(typeof requestChannels)[C]['request']>;
export type ResponseOf<C extends RequestChannel> = (typeof requestChannels)[C]['response'];
export type EventOf<E extends EventChannel> = (typeof eventChannels)[E];

/** Compile-time check that no two channel groups name the same channel (a spread would hide it). */
type Disjoint<G extends unknown[], Seen = never> = G extends [infer H, ...infer R]
  ? [keyof H & Seen] extends [never]
    ? Disjoint<R, Seen | keyof H>
    : keyof H & Seen
  : true;
export const channelGroupsDisjoint: Disjoint<
  [
    typeof appChannels,
    typeof serverChannels,
    typeof catalogChannels,
    typeof chatChannels,
    typeof settingsChannels,
    typeof pendingChannels,
    typeof metricsChannels,
    typeof permissionChannels,
    typeof appSettingsChannels,
    typeof mcpAppChannels,
    typeof subscriptionChannels,
    typeof taskChannels,
    typeof registryChannels,
    typeof bundleChannels,
    typeof dryRunChannels,
    typeof importChannels,
    typeof toolPinChannels,
    typeof flowChannels,
  ]
> = true;

/** Compile-time check that event-names.ts lists exactly the event channels. */
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const eventNamesMatch: SameKeys<EventChannel, EventName> = true;

/** The one API the renderer has: implemented by the preload and by the WebSocket client. */
export interface HostApi {
  invoke<C extends RequestChannel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>>;
  on<E extends EventChannel>(event: E, listener: (payload: EventOf<E>) => void): () => void;
  /**
   * The desktop app only: the local path of a File a person dropped (Electron's
   * webUtils.getPathForFile; "" when the File has none). Browser pages never see paths.
   */
  pathForFile?(file: unknown): string;
}

/** True for a string that names a request channel. */
export function isRequestChannel(name: unknown): name is RequestChannel {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requestChannels, name);
}

/** True for a string that names an event channel. */
export function isEventChannel(name: unknown): name is EventChannel {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(eventChannels, name);
}
