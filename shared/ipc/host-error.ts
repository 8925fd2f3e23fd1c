/**
 * The one error protocol between the host and everything that talks to it (DESIGN.md §6
 * rule 8): a closed list of codes, a message for people, and structured details as data.
 * The host turns whatever it throws into a HostError (electron/host/util/errors.ts); the
 * renderer reads what crossed with `parseHostError` (renderer/host/errors.ts).
 */

/** Every code a HostError may carry; anything else that crosses the wire reads as 'unknown'. */
export const HOST_ERROR_CODES = [
  // Requests and the contract.
  'unknown_channel', // the channel is not in the contract
  'invalid_request', // the payload failed the channel's schema; details.fields names each field
  'forbidden', // IPC from a frame that is not our own top frame
  'unavailable', // the feature is not wired into this host (e.g. no folder picker in the CLI)
  'internal', // a host invariant broke; a bug, not something a person can fix
  'cancelled', // the person, a stop or the shutdown cancelled it
  'timeout', // the server (or a sign-in) did not answer in time
  'error', // a plain Error with nothing more specific to say
  'unknown', // not a HostError at all (or a code this build does not know)

  // Server configuration and lifecycle.
  'config_invalid', // the server's entry does not parse
  'import_invalid', // an imported mcpServers document does not parse
  'server_exists', // a server with that name is already configured
  'unknown_server', // no server has that name
  'server_disabled', // the server is disabled; enable it first
  'not_connected', // the server is not connected (yet, or any more)
  'connection_closed', // the server closed the connection or its process exited
  'secret_missing', // a config references ${secret:NAME} with no stored value
  'sandbox_unavailable', // the OS sandbox was asked for but cannot run here

  // Calls to servers.
  'unknown_tool', // the server (or the model) named a tool that does not exist
  'duplicate_call', // a call id already in flight was reused
  'outside_roots', // a read outside the shared folders was refused; details.uri names it
  'protocol_error', // the server answered with a JSON-RPC error; details.rpcCode carries its code
  'not_mcp', // the URL answers, but not with MCP (a web page, JSON that is not JSON-RPC)
  'redirect_loop', // the URL redirects in a circle (or too many times)
  'http_error', // the server answered an HTTP error status; the message quotes the body's start

  // Errors of the MCP SDK (its SdkErrorCode, lower-cased; REQUEST_TIMEOUT reads as 'timeout').
  'already_connected', // the SDK transport was already connected
  'not_initialized', // the SDK session was used before initialize finished
  'capability_not_supported', // the server lacks the capability the request needs
  'send_failed', // the SDK could not send the message
  'invalid_result', // the server's result failed the SDK's schema
  'unsupported_result_type', // the server answered with a result kind this client cannot consume
  'input_required_rounds_exceeded', // the server kept asking for input past the round cap
  'list_pagination_exceeded', // a list walk hit the page cap without converging
  'method_not_supported_by_protocol_version', // the method does not exist in the negotiated era
  'era_negotiation_failed', // protocol-era negotiation failed (network error, 5xx, pinned era)
  'client_http_not_implemented', // the HTTP server does not implement what was asked
  'client_http_authentication', // HTTP 401, even after re-authentication
  'client_http_forbidden', // HTTP 403
  'client_http_unexpected_content', // the HTTP server answered with an unexpected content type
  'client_http_failed_to_open_stream', // the HTTP server refused the event stream
  'client_http_failed_to_terminate_session', // the HTTP server refused to end the session

  // Operating-system errors (errno, lower-cased) at the root of a failure.
  'enoent', // command (or file) not found
  'eacces', // permission denied
  'econnrefused', // nothing listens at that address
  'enotfound', // the host name does not resolve
  'econnreset', // the peer reset the connection
  'tls_error', // the secure (HTTPS) connection failed: certificate or protocol

  // Sign-in (OAuth) of remote servers.
  'not_remote', // sign-in was asked of a server that is not remote
  'sign_in_running', // a sign-in for that server is already under way
  'sign_in_limit', // too many sign-ins in a short time
  'sign_in_failed', // the sign-in did not finish; details.reason says why
  'no_sign_in', // no sign-in is in progress for that server
  'issuer_mismatch', // the sign-in came back from a different authorization server

  // Secrets and the keychain.
  'invalid_secret_name', // not a valid secret name
  'invalid_secret', // a secret value that is not a string, empty or too long
  'keychain_unavailable', // the OS keychain cannot be used here
  'keychain_error', // the OS keychain failed on a read or write
  'api_key_missing', // no API key is set for the model provider

  // Chat, conversations and settings.
  'run_active', // the conversation is still answering
  'empty_message', // a chat message with no text
  'message_not_found', // retry/edit named a message the conversation does not hold (or not one that can be)
  'invalid_conversation_id', // not a conversation id
  'conversation_not_found', // no conversation with that id (or it was deleted)
  'conversation_corrupt', // the conversation file does not parse
  'invalid_title', // an empty or too long conversation title
  'invalid_settings', // the settings do not pass their schema
  'invalid_trust', // a trust entry does not pass its schema
  'approval_timeout', // nobody answered a tool approval in time
  'model_unavailable', // the model provider is unavailable (retryable)
  'model_error', // the model provider refused the request
  'invalid_file', // an attached file's type, size or contents will not go to a model
  'file_not_found', // an attached file is no longer stored (attach it again)

  // Shared folders (roots).
  'invalid_root', // neither an absolute path nor a file:// URI
  'not_a_folder', // none of the paths is an existing folder

  // Imports from other hosts.
  'scan_expired', // the import preview is too old (or was already applied): scan again

  // MCP Apps views.
  'no_view', // the tool has no MCP App view, or views are switched off for its server
  'view_invalid', // the server's view resource is not a usable text/html;profile=mcp-app document
  'view_closed', // the view that asked is closed (or was never opened by this host)
  'app_call_refused', // a view asked for something its server or the tool's visibility does not allow
  'rate_limited', // too many requests in a short time; slow down and try again

  // Registry entries (server.json) and install links.
  'registry_unreachable', // the registry cannot be reached (offline, refused, no such host, timed out)
  'registry_error', // the registry answered an error status or something that is not its JSON
  'server_json_invalid', // a server.json fails the published schema or offers nothing installable
  'link_invalid', // an mcp-desk://install link is malformed, too big or carries unknown parameters
  'input_missing', // a required value of an install preview is empty; details.fields names each
  'checksum_mismatch', // a downloaded package's SHA-256 differs from the one its server.json declares
  'preview_expired', // the install preview is gone (installed already, or the host restarted)
  // MCP Bundles (.mcpb).
  'bundle_invalid', // the file is not a usable bundle (not a zip, a path leaving its folder, bad manifest, no entry point)
  'bundle_incompatible', // the bundle cannot run here (platform, runtime version, python/uv missing)
  'bundle_not_found', // no staged preview or installed bundle by that id or name
  'bundle_values_invalid', // a user_config value is missing or wrong; details.fields names each

  // Raised by the renderer itself, never by the host.
  'disconnected', // the bridge connection dropped or is not open
  'no_token', // the page has no bridge session token
  'not_pending', // the request was already answered or expired
  'no_path', // a dropped item has no local path
  'bad_schema', // an elicitation's schema cannot be rendered
] as const;

/** One of HOST_ERROR_CODES: a closed union, so a typo at a throw site fails the typecheck. */
export type HostErrorCode = (typeof HOST_ERROR_CODES)[number];

const KNOWN_CODES: ReadonlySet<string> = new Set(HOST_ERROR_CODES);

/** True for a string that is one of HOST_ERROR_CODES. */
export function isHostErrorCode(value: unknown): value is HostErrorCode {
  return typeof value === 'string' && KNOWN_CODES.has(value);
}

/** Structured data an error carries beside its message: read these, never parse the message. */
export interface HostErrorDetails {
  /** Validation messages by the field's path in the request ("config.command"; "(root)" for the whole). */
  fields?: Record<string, string>;
  /** A next step a person can take, written by the host (e.g. "check the command or PATH"). */
  hint?: string;
  /** The JSON-RPC error code of a protocol_error. */
  rpcCode?: number;
  /** The resource a refused read named. */
  uri?: string;
  /** Why a sign-in failed, as the authorization server or the loopback listener said it. */
  reason?: string;
  /** The raw text behind a plain-language message ("spawn foo ENOENT"), shown small for reports. */
  technical?: string;
}

/** A serialisable error: what crosses the boundary instead of an Error object. */
export interface HostError {
  code: HostErrorCode;
  message: string;
  details?: HostErrorDetails;
}

/** The Error a HostApi call rejects with: carries the serialisable HostError. */
export class HostCallError extends Error {
  readonly code: HostErrorCode;
  readonly details?: HostErrorDetails;

  constructor(error: HostError) {
    super(error.message);
    this.name = 'HostCallError';
    this.code = error.code;
    if (error.details) this.details = error.details;
  }

  /** The HostError this call failed with. */
  toHostError(): HostError {
    return this.details
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }
}

/** Caps on what a wire error may carry, so a broken peer cannot flood a form. */
const MAX_FIELDS = 200;
const MAX_TEXT = 10_000;

/**
 * Narrow anything that crossed a boundary to a HostError, without trusting it: an unknown
 * code reads as 'unknown', and only the known details keys with the right types survive.
 */
export function parseHostError(value: unknown): HostError {
  if (typeof value !== 'object' || value === null) return { code: 'unknown', message: String(value) };
  const v = value as Record<string, unknown>;
  if (typeof v.message !== 'string') return { code: 'unknown', message: 'malformed error from the host' };
  const code = isHostErrorCode(v.code) ? v.code : 'unknown';
  const details = parseDetails(v.details);
  return details ? { code, message: v.message, details } : { code, message: v.message };
}

function parseDetails(value: unknown): HostErrorDetails | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const out: HostErrorDetails = {};
  const fields = parseFields(v.fields);
  if (fields) out.fields = fields;
  if (typeof v.hint === 'string') out.hint = v.hint.slice(0, MAX_TEXT);
  if (typeof v.rpcCode === 'number') out.rpcCode = v.rpcCode;
  if (typeof v.uri === 'string') out.uri = v.uri.slice(0, MAX_TEXT);
  if (typeof v.reason === 'string') out.reason = v.reason.slice(0, MAX_TEXT);
  if (typeof v.technical === 'string') out.technical = v.technical.slice(0, MAX_TEXT);
  return Object.keys(out).length ? out : undefined;
}

function parseFields(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  let count = 0;
  for (const [path, message] of Object.entries(value as Record<string, unknown>)) {
    if (typeof message !== 'string' || path === '__proto__') continue;
    if (++count > MAX_FIELDS) break;
    out[path.slice(0, 300)] = message.slice(0, MAX_TEXT);
  }
  return count ? out : undefined;
}
