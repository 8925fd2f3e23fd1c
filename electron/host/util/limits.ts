/**
 * Every cap on what a server can make the host hold, in one place (DESIGN.md §6 rule 4: every
 * buffer fed by a server has a cap). A hostile or broken server costs at most these amounts per
 * server; whatever is cut is said so where a person (and the model) looks. The numbers are
 * documented in docs/limits.md#limits-on-what-a-server-can-make-the-host-hold.
 */
export const LIMITS = {
  /** One JSON-RPC message (one stdout line) from a stdio server; a longer one is dropped, and a response among them fails its request. */
  messageBytes: 64 * 1024 * 1024,
  /** Text of one tool result offered to the model and the UI (UTF-8 bytes, over all text blocks). */
  resultTextBytes: 256 * 1024,
  /** Base64 data (images, audio, embedded blobs) of one tool result. */
  resultBinaryBytes: 16 * 1024 * 1024,
  /** Content blocks of one tool result. */
  resultItems: 1000,
  /** structuredContent of one tool result, as JSON; a larger one is dropped (its text blocks remain). */
  resultStructuredBytes: 256 * 1024,
  /** Text of one resources/read result (UTF-8 bytes, over all its contents): an MCP App's HTML is a resource, so this is generous. */
  resourceTextBytes: 8 * 1024 * 1024,
  /** Base64 data (blobs) of one resources/read result. */
  resourceBinaryBytes: 32 * 1024 * 1024,
  /** Contents of one resources/read result. */
  resourceContents: 1000,
  /** Text of one prompts/get result (over all its messages), which goes to the model as tool results do. */
  promptTextBytes: 256 * 1024,
  /** Base64 data (images, audio, embedded blobs) of one prompts/get result. */
  promptBinaryBytes: 16 * 1024 * 1024,
  /** Messages of one prompts/get result. */
  promptMessages: 1000,
  /** Notifications a server may send per second (stdio, Streamable HTTP and SSE alike); more are dropped unread (list_changed and cancelled always pass) and summarised in its log. */
  notificationsPerSecond: 1000,
  /** Lines of one server's log (stderr, its log notifications, the host's notes about it). */
  logLines: 2000,
  /** Characters of one log line; a longer one is clipped. With logLines this bounds stderr kept per server (about 8 MB). */
  logLineChars: 4096,
  /** Log lines a server may add per second; beyond it lines are counted and summarised, not kept. */
  logLinesPerSecond: 500,
  /** Entries of one server's protocol trace. */
  traceEntries: 1000,
  /** Characters of one trace entry's JSON; long strings and arrays inside it are clipped first. */
  traceEntryChars: 16 * 1024,
  /** Sampling (or elicitation) requests one server may have waiting at once; more are refused. roots/list is answered on the spot. */
  serverRequestsInFlight: 16,
  /** Tools kept from one server's tools/list (over every page). */
  toolsPerServer: 5000,
  /** A tool name longer than this is unusable (no model or person can work with it): the tool is dropped. */
  toolNameChars: 1024,
  /** A tool description longer than this is clipped. */
  toolDescriptionChars: 16 * 1024,
  /** Resources kept live (subscribed) on one server at once; more are refused with a reason. */
  subscriptionsPerServer: 32,
  /** Changed resources waiting to be announced to views, over all servers (coalesced per resource); more are dropped and counted. */
  queuedResourceUpdates: 256,
} as const;

/** The JSON-RPC error code of a server-to-client request refused for being over a cap. */
export const OVER_CAP_RPC_CODE = -32000;

/** "52,428,800 bytes"-style counts in notes people read. */
export function formatCount(n: number, unit: string): string {
  return `${n.toLocaleString('en-US')} ${unit}`;
}
