import type { ToolWarning } from './tool-trust.js';

/**
 * Flow labels and the taint of a conversation: which tools read what others control, which
 * touch local secrets, which act on the world, and what untrusted content came before a call.
 * Computed by the host (electron/host/policies/); shown by the Tools view, Permissions and the
 * approval card; printed by `mcp-desk audit-flows`.
 */

/**
 * `source`: reads what others control (web pages, mail, calendars, issues, chat messages);
 * `sensitive`: local files, secrets, credentials; `sink`: runs commands, writes or deletes,
 * sends messages, makes network requests.
 */
export type FlowLabel = 'source' | 'sensitive' | 'sink';

/** Every label, in display order. */
export const FLOW_LABELS: readonly FlowLabel[] = ['source', 'sensitive', 'sink'];

/** One reason a label was given (or withheld), in words a person can check against the tool. */
export interface FlowReason {
  /** `not-sink`/`not-source`: why a label was withheld; `unknown`: why it may be a sink after all. */
  label: FlowLabel | 'not-sink' | 'not-source' | 'unknown';
  why: string;
}

/** A tool's labels as the host applies them. */
export interface ToolFlow {
  labels: FlowLabel[];
  /** Nothing says whether it acts on the world: treated as a possible sink. */
  unknown: boolean;
  /** Why each label was given: annotations, name, description, input schema, or an override. */
  reasons: FlowReason[];
  /** Computed from the tool, or set by a person for this tool or for its whole server. */
  origin: 'default' | 'tool' | 'server';
  /**
   * Its only sign of acting is fetching from the network (a `url` parameter, a name like
   * "fetch"): a chat whose untrusted content all came from this very tool, and that read
   * nothing sensitive, does not hold it (browsing page after page has nothing new to leak).
   */
  fetchOnly?: true;
}

/** Whether a call of a tool with these labels waits for review in a tainted conversation. */
export function heldWhenTainted(flow: Pick<ToolFlow, 'labels' | 'unknown'>): boolean {
  return flow.unknown || flow.labels.includes('sink');
}

/** How untrusted content entered a conversation. */
export type TaintKind = 'tool-result' | 'resource' | 'sampling' | 'app-message' | 'app-context';

/** One piece of untrusted content that came before a call, as the approval card shows it. */
export interface FlowLink {
  kind: TaintKind;
  serverId: string;
  /** The tool (result, sampling cause, view) or the resource URI it came from. */
  name: string;
  /** When it entered the conversation (ms since the epoch). */
  at: number;
  /** A window of the content: around the call's own argument text where it appears there. */
  passage: string;
  /** Offsets of the call's argument text in `passage`, when the content carries it. */
  carried?: { start: number; end: number };
  /** Injection patterns matched in `passage`, by offsets, for marking them there. */
  marks: { start: number; end: number; kind: ToolWarning['kind'] }[];
  /** Injection markers in the content (hidden text, orders to the model). */
  warnings: ToolWarning[];
}

/** Why a call is held: the content that came before it and why the tool counts as a sink. */
export interface FlowHold {
  /** Untrusted content of the conversation, the pieces the call's arguments come from first. */
  chain: FlowLink[];
  /** How many pieces there were in all (the chain is capped). */
  total: number;
  /** The tool's labels, with why it counts as a (possible) sink. */
  flow: ToolFlow;
}

/** A person's override of a tool's labels (or of every tool of a server). */
export interface FlowOverride {
  serverId: string;
  /** Absent: the whole server. */
  tool?: string;
  labels: FlowLabel[];
  setAt?: string;
}

/** Where a piece of the chain came from, in words ("text read from calendar.list_events"). */
export function flowLinkSource(link: Pick<FlowLink, 'kind' | 'serverId' | 'name'>): string {
  switch (link.kind) {
    case 'tool-result':
      return `text read from ${link.serverId}.${link.name}`;
    case 'resource':
      return `the resource ${link.name} of ${link.serverId}, attached to a message`;
    case 'sampling':
      return `a sampling request from ${link.serverId} (while ${link.name} ran)`;
    case 'app-message':
      return `a message from the view of ${link.serverId}.${link.name}`;
    case 'app-context':
      return `what the view of ${link.serverId}.${link.name} told the model`;
  }
}
