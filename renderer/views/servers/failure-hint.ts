import type { HostError, ServerSummary } from '../../../shared/domain/server-state.js';

/**
 * A next step a person can take for a connection failure. The host's message says what
 * happened; this says what to do about it, keyed first on the error code the host sets
 * (see electron/host/util/errors.ts) and then on words in the message.
 */
export function failureHint(error: HostError, transport: ServerSummary['transport']): string | null {
  const code = error.code.toLowerCase();
  const msg = error.message.toLowerCase();
  if (code === 'enoent' || /enoent|command not found|not recognized as/.test(msg)) {
    return 'command not found — check the command or PATH (an absolute path always works)';
  }
  if (code === 'eacces' || /eacces|permission denied/.test(msg))
    return 'permission denied — make sure the command is executable';
  if (code === 'econnrefused' || msg.includes('econnrefused'))
    return 'nothing is listening there — is the server running, and is the URL right?';
  if (code === 'enotfound' || msg.includes('enotfound')) return 'host not found — check the URL for typos';
  if (transport !== 'stdio' && /fetch failed|network|socket hang up/.test(msg)) {
    return 'could not reach the server — is it running, and is the URL right?';
  }
  if (/\b401\b|unauthori[sz]ed|\b403\b|forbidden/.test(msg) || code === 'unauthorized') {
    return 'the server refused the credentials — check the headers (e.g. Authorization) or sign in again';
  }
  if (/\b404\b|not found/.test(msg) && transport !== 'stdio')
    return 'the server answered 404 — check the URL path (often ends in /mcp or /sse)';
  if (code === 'timeout' || /timed? ?out/.test(msg))
    return 'the server did not answer in time — check its Log tab, or raise the timeout in Edit';
  if (/exit|closed|terminated|crash/.test(msg) && transport === 'stdio') {
    return 'the process stopped — its Log tab shows what it printed before exiting';
  }
  if (code === 'invalid_config' || code === 'invalid_request' || /invalid/.test(msg))
    return 'the entry is not valid — fix it with Edit';
  return null;
}
