import type { ServerState, ServerSummary } from '../../../shared/domain/server-state.js';
import type { HostError } from '../../../shared/ipc/host-error.js';

/**
 * Every word the app says about what to do after a failure lives here, on the host, and
 * crosses as data (`details.hint`); the renderer shows it and never works one out itself.
 */

/**
 * A next step a person can take for a connection failure: the message says what happened,
 * this says what to do about it, keyed first on the code and then on the server's words.
 */
export function failureHint(error: HostError, transport: ServerSummary['transport']): string | undefined {
  const code = error.code;
  const msg = error.message.toLowerCase();
  if (code === 'not_mcp')
    return 'something answers at this URL, but not an MCP server — check the path (often ends in /mcp or /sse)';
  if (code === 'redirect_loop')
    return 'the URL redirects in a circle — use the final address of the MCP endpoint, or check the server';
  if (code === 'http_error')
    return /^http 5/.test(msg)
      ? 'the server failed on its side — its own logs say why; try again later'
      : 'the server refused the request — check the URL and headers';
  if (code === 'enoent' || /enoent|command not found|not recognized as/.test(msg))
    return 'if it is installed, check the command or PATH — an absolute path (e.g. /usr/local/bin/npx) always works, and an app started from the desktop may not see your shell’s PATH';
  if (code === 'eacces' || /eacces|permission denied/.test(msg))
    return 'permission denied — make sure the command is executable';
  if (code === 'econnrefused' || msg.includes('econnrefused'))
    return 'nothing is listening there — start the server, or fix the address with Edit';
  if (code === 'enotfound' || msg.includes('enotfound'))
    return 'the name does not exist in DNS — look for a typo in the URL, or check your network';
  if (code === 'tls_error')
    return 'use the host name the certificate was issued for, or fix the server’s certificate';
  if (transport !== 'stdio' && /fetch failed|network|socket hang up/.test(msg))
    return 'could not reach the server — is it running, and is the URL right?';
  if (/\b401\b|unauthori[sz]ed|\b403\b|forbidden/.test(msg))
    return 'the server refused the credentials — check the headers (e.g. Authorization) or sign in again';
  if (/\b404\b|not found/.test(msg) && transport !== 'stdio')
    return 'the server answered 404 — check the URL path (often ends in /mcp or /sse)';
  if (code === 'timeout' || /timed? ?out/.test(msg))
    return 'the server did not answer in time — check its Log tab, or raise the timeout in Edit';
  if (/exit|closed|terminated|crash/.test(msg) && transport === 'stdio')
    return 'the process stopped — its Log tab shows what it printed before exiting';
  if (code === 'config_invalid' || code === 'invalid_request' || /invalid/.test(msg))
    return 'the entry is not valid — fix it with Edit';
  return undefined;
}

/** A server's state with the failure hint attached to its error, as the server list shows it. */
export function withFailureHint(state: ServerState, transport: ServerSummary['transport']): ServerState {
  if (state.kind === 'failed') return { ...state, error: hinted(state.error, transport) };
  if (state.kind === 'reconnecting') return { ...state, lastError: hinted(state.lastError, transport) };
  return state;
}

function hinted(error: HostError, transport: ServerSummary['transport']): HostError {
  const hint = failureHint(error, transport);
  return hint ? { ...error, details: { ...error.details, hint } } : error;
}
