/**
 * What the host knows about whether a tool can be trusted as it reads now: its pinned
 * definition (a "rug pull" shows as changed) and the warnings its text raised (poisoning,
 * shadowing). Computed by the host (electron/host/tool-trust/); shown by the Tools view, the
 * chat's tool cards and approval cards; printed by `mcp-desk tools --json` and `audit-tools`.
 */

/** The parts of a tool the model and the person see: what a fingerprint covers. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/** Why a tool's text looks wrong. Warnings never block on their own: a person decides. */
export type ToolWarningKind =
  /** Invisible, bidi, tag or zero-width characters. */
  | 'hidden-unicode'
  /** Text addressed to the model ("ignore previous instructions", "do not tell the user"). */
  | 'model-instructions'
  /** Asks to read secrets, keys, SSH or credential files. */
  | 'secret-access'
  /** URLs or patterns that send data somewhere. */
  | 'exfiltration'
  /** Far longer than tool descriptions normally are. */
  | 'long-description'
  /** Names a tool of another server (or tells the model to use one). */
  | 'mentions-other-tool'
  /** Another server offers a tool of the same (or a confusable) name. */
  | 'shadowing';

/** Where in the tool a passage was found: a top-level field or a JSON pointer into a schema. */
export type ToolTextField =
  'name' | 'title' | 'description' | `inputSchema${string}` | `outputSchema${string}`;

/** One matched passage, by offsets into the field's text (so the UI can highlight it). */
export interface WarningPassage {
  field: ToolTextField | 'result';
  /** The field's whole text (capped), for showing the passage in context. */
  text: string;
  start: number;
  end: number;
}

/** One warning with its reason, in a sentence a person can act on. */
export interface ToolWarning {
  kind: ToolWarningKind;
  reason: string;
  passages: WarningPassage[];
  /** For shadowing and mentions: the other server and tool. */
  other?: { serverId: string; tool: string };
}

/**
 * Where a tool stands against its pin: first seen now ("new", and pinned at once), the same
 * as pinned, or changed since (including removed and offered again).
 */
export type ToolPinStatus = 'pinned' | 'changed';

/** The trust facts of one tool, attached to each catalog entry. */
export interface ToolTrust {
  /** sha256 (hex) of the canonical JSON (RFC 8785) of its ToolDefinition. */
  fingerprint: string;
  pin: ToolPinStatus;
  /** When the change was first seen (ISO 8601), for a changed tool. */
  changedAt?: string;
  warnings: ToolWarning[];
}

/** A changed tool's two versions, for the readable diff a person reviews before accepting. */
export interface ToolChange {
  serverId: string;
  tool: string;
  pinned: ToolDefinition;
  pinnedAt: string;
  /** When a person approved the pinned version (a call allowed, a change accepted); absent: only first seen. */
  approvedAt?: string;
  current: ToolDefinition;
  changedAt: string;
  /** It was gone from the server's list and came back (counts as changed even if identical). */
  readded: boolean;
}
