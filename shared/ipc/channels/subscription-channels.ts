import { z } from 'zod';
import { empty, serverId, typed } from './channel-kit.js';

/** The syslog levels of MCP logging, least to most severe. */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

/** One MCP log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Who holds a live resource: a name the view picks ("resources-view", "chat-composer"). */
const holder = z.string().regex(/^[A-Za-z0-9:._-]{1,64}$/, 'not a holder name');
const uri = z.string().min(1).max(4096);

/** What a subscribe did: live now, or why not (no support, the cap, not connected). */
export interface SubscribeOutcome {
  subscribed: boolean;
  reason?: string;
}

/** One server+uri the host keeps live, as the host sees it (for views and tests). */
export interface ResourceSubscriptionInfo {
  serverId: string;
  uri: string;
  holders: string[];
  /** Established on the server's current session. */
  active: boolean;
  /** How: 2025 resources/subscribe or a 2026-07-28 subscriptions/listen stream. */
  via?: 'subscribe' | 'listen';
  /** Updates delivered since the host started keeping it. */
  updates: number;
  lastUpdateAt?: number;
  /** Why it is not active, when it is not. */
  reason?: string;
}

/** A server's log level as the log view shows it. */
export interface LogLevelState {
  /** The level chosen for this server (re-applied on every connect); null: the server's default. */
  level: LogLevel | null;
  /** Whether the level can be changed now. */
  available: boolean;
  /** Why not, when it cannot. */
  reason?: string;
}

/** Live resources (subscriptions in both protocol eras) and per-server log levels. */
export const subscriptionChannels = {
  /** Keep a resource live for `holder`: one server subscription per server+uri, however many hold it. */
  'resources.subscribe': {
    request: z.object({ serverId, uri, holder }).strict(),
    response: typed<SubscribeOutcome>(),
  },
  /** `holder` lets go; the last one to let go ends the server subscription. */
  'resources.unsubscribe': {
    request: z.object({ serverId, uri, holder }).strict(),
    response: typed<{ released: boolean }>(),
  },
  /** Every resource the host keeps live, with its holders. */
  'resources.subscriptions': { request: empty, response: typed<ResourceSubscriptionInfo[]>() },
  'logging.get': { request: z.object({ serverId }).strict(), response: typed<LogLevelState>() },
  /** 2025 logging/setLevel, remembered per server and sent again after every reconnect. */
  'logging.setLevel': {
    request: z.object({ serverId, level: z.enum(LOG_LEVELS) }).strict(),
    response: typed<LogLevelState>(),
  },
} as const;

/** The payload of `resources.updated`: the server said this resource changed. */
export interface ResourceUpdated {
  serverId: string;
  uri: string;
  at: number;
}
