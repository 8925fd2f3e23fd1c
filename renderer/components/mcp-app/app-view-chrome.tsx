import {
  ExternalLink,
  Info,
  Maximize2,
  Minimize2,
  PictureInPicture2,
  ShieldAlert,
  type LucideIcon,
} from 'lucide-react';
import type { PointerEvent as ReactPointerEvent } from 'react';
import type { McpUiDisplayMode } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppPermission } from '../../../shared/domain/mcp-apps.js';

const PERMISSION_WORDS: Record<AppPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'location',
  clipboardWrite: 'clipboard (write)',
};

/** The buttons each display mode offers: where they go, and how they are named. */
const MODE_BUTTONS: Record<
  McpUiDisplayMode,
  { to: McpUiDisplayMode; testId: string; title: string; label: string; Icon: LucideIcon }[]
> = {
  inline: [
    {
      to: 'pip',
      testId: 'app-view-pip',
      title: 'Float the view in a small panel',
      label: 'Float',
      Icon: PictureInPicture2,
    },
    {
      to: 'fullscreen',
      testId: 'app-view-fullscreen',
      title: 'Show the view over the whole window',
      label: 'Full screen',
      Icon: Maximize2,
    },
  ],
  fullscreen: [
    {
      to: 'inline',
      testId: 'app-view-exit-fullscreen',
      title: 'Back into the conversation (Esc)',
      label: 'Exit full screen',
      Icon: Minimize2,
    },
  ],
  pip: [
    {
      to: 'inline',
      testId: 'app-view-exit-pip',
      title: 'Put the view back in place',
      label: 'Back in place',
      Icon: Minimize2,
    },
  ],
};

/** The view's title bar: whose view it is, and the display mode buttons. */
export function AppViewBar({
  tool,
  serverId,
  mode,
  onMode,
  onDragStart,
}: {
  tool: string;
  serverId: string;
  mode: McpUiDisplayMode;
  onMode: (mode: McpUiDisplayMode) => void;
  onDragStart?: (e: ReactPointerEvent<HTMLDivElement>) => void;
}) {
  return (
    <div className="app-view-bar" onPointerDown={onDragStart}>
      <span className="app-view-title">
        <strong>{tool}</strong> <span className="muted">interactive view from {serverId}</span>
      </span>
      <span className="app-view-actions">
        {MODE_BUTTONS[mode].map((b) => (
          <button
            key={b.testId}
            type="button"
            className="small icon-text"
            onClick={() => onMode(b.to)}
            data-testid={b.testId}
            title={b.title}
          >
            <b.Icon size={14} aria-hidden /> {b.label}
          </button>
        ))}
      </span>
    </div>
  );
}

/** Says which outside origins the view may reach (it declared them in its CSP). */
export function ExternalDomainsNote({ domains }: { domains: string[] }) {
  if (domains.length === 0) return null;
  return (
    <p className="app-view-note warn-text small-print" data-testid="app-view-external">
      <ShieldAlert size={14} aria-hidden /> This view may contact outside sites: {domains.join(', ')}
    </p>
  );
}

/**
 * Says what this browser lets every view do that the app cannot stop here: take the keyboard
 * focus on its own (the browser does not enforce `focus-without-user-activation`), and open
 * WebRTC connections to any host (no browser applies a CSP to WebRTC; only the desktop app
 * blocks it). Nothing when both are stopped.
 */
export function IsolationNote({
  focusEnforced,
  webRtcBlocked,
}: {
  focusEnforced: boolean;
  webRtcBlocked: boolean;
}) {
  if (focusEnforced && webRtcBlocked) return null;
  return (
    <p className="app-view-note app-view-disclosure small-print" data-testid="app-view-isolation">
      <Info size={14} aria-hidden />
      <span>
        In this browser any view can
        {!focusEnforced && (
          <span data-testid="app-view-focus-note">
            {' '}
            take the keyboard focus without being clicked (MCP Desk takes it back when it notices, and stops a
            view that keeps doing it)
          </span>
        )}
        {!focusEnforced && !webRtcBlocked && ' and'}
        {!webRtcBlocked && (
          <span data-testid="app-view-webrtc-note">
            {' '}
            open WebRTC connections to any host, past its declared sites
          </span>
        )}
        ; the desktop app prevents this.
      </span>
    </p>
  );
}

/** Asks the person before the view gets device permissions for its server. */
export function PermissionPrompt({
  serverId,
  missing,
  error,
  onAllow,
  onDismiss,
}: {
  serverId: string;
  missing: AppPermission[];
  error: string | null;
  onAllow: () => void;
  onDismiss: () => void;
}) {
  return (
    <div
      className="app-view-ask"
      role="group"
      aria-label="Permission request"
      data-testid="app-view-permissions"
    >
      <span>
        This view asks to use your {missing.map((p) => PERMISSION_WORDS[p]).join(', ')}. Allow it for{' '}
        {serverId}?
      </span>
      <button
        type="button"
        className="small primary"
        onClick={onAllow}
        data-testid="app-view-permissions-allow"
      >
        Allow
      </button>
      <button type="button" className="small" onClick={onDismiss} data-testid="app-view-permissions-dismiss">
        Not now
      </button>
      {error && <span className="error-text small-print">{error}</span>}
    </div>
  );
}

/** Asks the person before a link from the view opens in the browser. */
export function LinkPrompt({ url, onAnswer }: { url: string; onAnswer: (open: boolean) => void }) {
  return (
    <div className="app-view-ask" role="group" aria-label="Open link" data-testid="app-view-link">
      <span>
        The view wants to open <code className="app-view-url">{url}</code> in your browser.
      </span>
      <button
        type="button"
        className="small primary"
        onClick={() => onAnswer(true)}
        data-testid="app-view-link-open"
      >
        <ExternalLink size={14} aria-hidden /> Open
      </button>
      <button
        type="button"
        className="small"
        onClick={() => onAnswer(false)}
        data-testid="app-view-link-cancel"
      >
        Cancel
      </button>
    </div>
  );
}
