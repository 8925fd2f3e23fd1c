import type { FlowLabel } from './flows.js';
import type { AppPermission } from './mcp-apps.js';
import type { SamplingConsent } from './pending.js';

/** A tool a person chose to "always allow". */
export interface ToolPermission {
  tool: string;
  /** When it was granted (ISO 8601); absent for records older than this field. */
  grantedAt?: string;
  /** The conversation whose approval card granted it, when known. */
  conversationId?: string;
  /** False when the server's command or URL changed since: the record no longer lets the tool run. */
  applies: boolean;
}

/** Why a server is trusted (every tool runs without asking). */
export type TrustSource =
  /** The Trust switch (or an earlier version's trust record). */
  | 'granted'
  /** `"trust": "trusted"` in the server's config entry. */
  | 'config';

/** A server's trust, as the Trust switch shows it. */
export interface ServerTrust {
  /** Whether the server's tools run without asking now. */
  trusted: boolean;
  source?: TrustSource;
  grantedAt?: string;
  /** A trust record made for an earlier command or URL (it does not apply; revoking tidies it up). */
  stale?: boolean;
}

/** A server's standing sampling decision (absent while it simply asks each time). */
export interface SamplingPermission {
  consent: SamplingConsent;
  skipReplyReview: boolean;
  grantedAt?: string;
}

/** What a person decided about a server's interactive views (MCP Apps). */
export interface AppViewPermission {
  /** Device permissions granted to its views (camera, microphone, geolocation, clipboard-write). */
  permissions: AppPermission[];
  /** The "Show interactive views" switch (on unless turned off). */
  viewsEnabled: boolean;
  grantedAt?: string;
}

/** Everything standing about one server. */
export interface ServerPermissions {
  serverId: string;
  /** False for a server no longer in the config whose records are still kept. */
  configured: boolean;
  trust: ServerTrust;
  tools: ToolPermission[];
  sampling?: SamplingPermission;
  /** Its views' decisions; absent while everything is at the defaults (views shown, nothing granted). */
  apps?: AppViewPermission;
  /** Flow labels a person set over the defaults: for every tool of the server, and per tool. */
  flows?: FlowLabelsPermission;
}

/** A server's flow-label overrides (a relaxed label lets calls run that a tainted chat would hold). */
export interface FlowLabelsPermission {
  /** The labels of every tool of the server without an override of its own. */
  server?: { labels: FlowLabel[]; setAt?: string };
  tools: { tool: string; labels: FlowLabel[]; setAt?: string }[];
}

/** Every configured server (with or without grants) and every server that still has a record. */
export type PermissionsSnapshot = ServerPermissions[];

/** One standing permission, as Revoke names it. */
export type PermissionRef =
  | { serverId: string; kind: 'tool'; tool: string }
  | { serverId: string; kind: 'trust' }
  | { serverId: string; kind: 'sampling' }
  /** Every device permission granted to the server's views (the views switch is a preference, kept). */
  | { serverId: string; kind: 'app-permissions' }
  /** A flow-label override: a tool's, or (without `tool`) the server's; its tools go back to their defaults. */
  | { serverId: string; kind: 'flow-labels'; tool?: string };

/** Whether a server has anything to revoke (a grant, trust or a sampling decision). */
export function hasGrants(p: ServerPermissions): boolean {
  return (
    p.tools.length > 0 ||
    p.trust.trusted ||
    p.trust.stale === true ||
    p.sampling !== undefined ||
    (p.apps?.permissions.length ?? 0) > 0 ||
    p.flows !== undefined
  );
}
