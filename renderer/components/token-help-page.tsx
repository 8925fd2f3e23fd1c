import { KeyRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { useLinkStatus } from '../host/host-context.js';

/**
 * Shown instead of the app when browser mode has no usable session token: the page says why and
 * how to get in, because without the token the host answers nothing (a blank app helps nobody).
 */
export function TokenHelpPage({ reason }: { reason: 'missing' | 'rejected' }) {
  return (
    <main className="token-help" data-testid="token-help" data-reason={reason}>
      <div className="token-help-card">
        <h1>
          <KeyRound aria-hidden size={22} /> Open MCP Desk from the address it printed
        </h1>
        <p data-testid="token-help-reason">
          {reason === 'missing'
            ? 'This page was opened without its session token. Browser mode only answers the tab that brings the token, so that other web pages and other users on this computer cannot use your servers.'
            : 'The host refused the session token this tab had. MCP Desk makes a new token each time it starts, so it was probably restarted since this tab opened.'}
        </p>
        <ol>
          <li>
            Go to the terminal where you ran <code>mcp-desk browser</code> and open the address it printed (it
            ends in <code>#token=…</code>).
          </li>
          <li>
            Not running any more? Start it again with <code>mcp-desk browser</code> (or{' '}
            <code>npm run browser</code> in a checkout) and use the new address.
          </li>
        </ol>
        <p className="muted">
          The page removes the token from the address bar once it has it, so a copied address opens this page;
          reloading the tab that has it keeps working.
        </p>
      </div>
    </main>
  );
}

/** Renders the app, or the help page when the link has no token (at start or once refused). */
export function TokenGate({ children }: { children: ReactNode }) {
  const status = useLinkStatus();
  return status.kind === 'no-token' ? <TokenHelpPage reason={status.reason} /> : <>{children}</>;
}
