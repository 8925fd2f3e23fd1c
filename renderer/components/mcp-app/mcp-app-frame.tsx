import type { McpUiDisplayMode } from '@modelcontextprotocol/ext-apps/app-bridge';
import { useCallback, useEffect, useRef, useState } from 'react';
import { externalOrigins, type AppPermission, type AppViewHandle } from '../../../shared/domain/mcp-apps.js';
import type { CallToolResult } from '../../../shared/domain/mcp-types.js';
import { useHost } from '../../host/host-context.js';
import { asHostError } from '../../host/errors.js';
import { callApp } from './app-channels.js';
import {
  AppViewBar,
  ExternalDomainsNote,
  IsolationNote,
  LinkPrompt,
  PermissionPrompt,
} from './app-view-chrome.js';
import { FocusGuard, focusPolicyEnforced } from './focus-guard.js';
import { hostContext, HOST_DISPLAY_MODES, onThemeChange } from './host-context.js';
import { usePipDock } from './use-pip-dock.js';
import { usePipDrag } from './use-pip-drag.js';
import { MessageNote, useViewApprovals, ViewRequests, type RefusedMessage } from './view-requests.js';
import { ViewSession } from './view-session.js';

/** Past this height the view scrolls inside its frame instead of growing. */
export const MAX_INLINE_HEIGHT = 800;
const LOADING_HEIGHT = 160;
const DEFAULT_INIT_TIMEOUT_MS = 10_000;
/** Tests shorten the wait for `ui/notifications/initialized` through this key in localStorage. */
const INIT_TIMEOUT_KEY = 'mcp-desk:app-view-init-timeout-ms';

const FEATURES: Record<AppPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/** What the frame shows: the call that produced the view, as stored. */
export interface McpAppFrameProps {
  serverId: string;
  tool: string;
  args: Record<string, unknown>;
  /** Absent while the call runs. */
  result?: CallToolResult;
  conversationId?: string;
  toolCallId?: string;
}

type FrameState =
  | { kind: 'opening' }
  | { kind: 'loading'; handle: AppViewHandle }
  | { kind: 'ready'; handle: AppViewHandle }
  | { kind: 'failed'; note: string }
  | { kind: 'fallback'; note: string }
  | { kind: 'stopped'; note: string };

/** Every view frame is denied taking the focus before the person interacts with it. */
const NO_FOCUS_STEALING = "focus-without-user-activation 'none'";
const STOPPED_NOTE =
  'This view kept taking the keyboard focus while you were using the app, so it was stopped. The text result above is all there is.';

function initTimeoutMs(): number {
  const raw = Number(window.localStorage.getItem(INIT_TIMEOUT_KEY));
  return Number.isFinite(raw) && raw > 0 ? raw : DEFAULT_INIT_TIMEOUT_MS;
}

/**
 * An MCP App view: the host opens it (HTML, CSP, sandbox page), the outer iframe loads the
 * sandbox proxy from another origin, and a ViewSession talks to the view through it. The
 * tool's text result stays in the card above: it is what shows when the view cannot.
 */
export function McpAppFrame(props: McpAppFrameProps) {
  const { serverId, tool, conversationId, toolCallId } = props;
  const host = useHost();
  const [state, setState] = useState<FrameState>({ kind: 'opening' });
  const [generation, setGeneration] = useState(0);
  const [mode, setMode] = useState<McpUiDisplayMode>('inline');
  const [height, setHeight] = useState(LOADING_HEIGHT);
  const [link, setLink] = useState<{ url: string; answer: (open: boolean) => void } | null>(null);
  const [askPermissions, setAskPermissions] = useState(true);
  const [permissionError, setPermissionError] = useState<string | null>(null);
  const [refused, setRefused] = useState<RefusedMessage | null>(null);
  const frameRef = useRef<HTMLIFrameElement | null>(null);
  const boxRef = useRef<HTMLDivElement | null>(null);
  const panelRef = useRef<HTMLElement | null>(null);
  const sessionRef = useRef<ViewSession | null>(null);
  const modeRef = useRef(mode);
  useEffect(() => {
    modeRef.current = mode;
  }, [mode]);
  const drag = usePipDrag(mode === 'pip');
  const dock = usePipDock(mode === 'pip' && !drag.style, panelRef);

  // Open the view on the host: its HTML, CSP and the sandbox page to load.
  useEffect(() => {
    let live = true;
    host
      .invoke('apps.open', {
        serverId,
        tool,
        ...(conversationId ? { conversationId } : {}),
        ...(toolCallId ? { toolCallId } : {}),
      })
      .then(
        (handle) => {
          if (live) setState({ kind: 'loading', handle });
          else void host.invoke('apps.close', { viewId: handle.viewId }).catch(() => undefined);
        },
        (error: unknown) => {
          if (!live) return;
          const e = asHostError(error);
          setState({
            kind: e.code === 'no_view' ? 'fallback' : 'failed',
            note: `The interactive view is not shown: ${e.message}`,
          });
        },
      );
    return () => {
      live = false;
    };
  }, [host, serverId, tool, conversationId, toolCallId, generation]);

  const handle = state.kind === 'loading' || state.kind === 'ready' ? state.handle : null;

  const context = useCallback(
    () =>
      hostContext({
        displayMode: modeRef.current,
        width: boxRef.current?.clientWidth ?? 600,
        maxHeight: modeRef.current === 'fullscreen' ? window.innerHeight : MAX_INLINE_HEIGHT,
      }),
    [],
  );

  // One session per opened view: connect, wait for the view to initialize, close on the way out.
  useEffect(() => {
    const frame = frameRef.current?.contentWindow;
    if (!handle || !frame) return;
    const session = new ViewSession(host, handle, frame, {
      context,
      onInitialized: () => setState((s) => (s.kind === 'loading' ? { kind: 'ready', handle: s.handle } : s)),
      onSize: (h) => setHeight(Math.max(1, Math.ceil(h))),
      onDisplayMode: (wanted) => {
        const next = HOST_DISPLAY_MODES.includes(wanted) ? wanted : modeRef.current;
        setMode(next);
        return next;
      },
      confirmLink: (url) => new Promise<boolean>((resolve) => setLink({ url, answer: resolve })),
      onMessageRefused: setRefused,
    });
    sessionRef.current = session;
    void session.start();
    const timer = window.setTimeout(() => {
      setState((s) => {
        if (s.kind !== 'loading') return s;
        void session.close(false);
        const seconds = Math.round(initTimeoutMs() / 1000);
        return {
          kind: 'fallback',
          note: `The interactive view did not start within ${seconds} s, so the text result above is all there is.`,
        };
      });
    }, initTimeoutMs());
    return () => {
      window.clearTimeout(timer);
      sessionRef.current = null;
      void session.close(true);
    };
  }, [host, handle, context]);

  // The keyboard stays with the person: a view that takes the focus from the app gets it taken
  // back, and one that keeps doing it is stopped (focus-guard.ts).
  useEffect(() => {
    const frame = frameRef.current;
    if (!handle || !frame) return undefined;
    const guard = new FocusGuard(frame, () => setState({ kind: 'stopped', note: STOPPED_NOTE }));
    return () => guard.dispose();
  }, [handle]);

  // Tool input and result reach the view once it is ready (and the result when it arrives). A call
  // that ends without a result unmounts its view (tool-call-card.tsx), so there is no cancel to send.
  const ready = state.kind === 'ready';
  const argsJson = JSON.stringify(props.args);
  useEffect(() => {
    if (ready) sessionRef.current?.sendInput(JSON.parse(argsJson) as Record<string, unknown>);
  }, [ready, argsJson]);
  useEffect(() => {
    if (ready && props.result) sessionRef.current?.sendResult(props.result);
  }, [ready, props.result]);
  const approvals = useViewApprovals(handle?.viewId ?? null);

  // Theme, size and display mode changes reach the view as host-context-changed.
  useEffect(() => {
    if (!ready) return undefined;
    sessionRef.current?.contextChanged();
    const stopTheme = onThemeChange(() => sessionRef.current?.contextChanged());
    let width = boxRef.current?.clientWidth ?? 0;
    const observer = new ResizeObserver(() => {
      const now = boxRef.current?.clientWidth ?? 0;
      if (Math.abs(now - width) >= 1) sessionRef.current?.contextChanged();
      width = now;
    });
    if (boxRef.current) observer.observe(boxRef.current);
    return () => {
      stopTheme();
      observer.disconnect();
    };
  }, [ready, mode]);

  // Esc leaves full screen.
  useEffect(() => {
    if (mode !== 'fullscreen') return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMode('inline');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [mode]);

  if (state.kind === 'failed' || state.kind === 'fallback' || state.kind === 'stopped')
    return (
      <div className="app-view app-view-fallback-box" data-testid="app-view" data-state={state.kind}>
        <p className="muted small-print" data-testid="app-view-fallback">
          {state.note}
        </p>
      </div>
    );
  if (!handle)
    return (
      <div className="app-view" data-testid="app-view" data-state="loading">
        <p className="muted small-print">Opening the interactive view…</p>
      </div>
    );

  const missing = handle.permissions.requested.filter((p) => !handle.permissions.granted.includes(p));
  const allowPermissions = () => {
    setPermissionError(null);
    callApp(host, 'apps.setPermissions', {
      serverId,
      permissions: [...handle.permissions.granted, ...missing],
    }).then(
      () => setGeneration((g) => g + 1),
      (error: unknown) => setPermissionError((error as Error).message),
    );
  };
  const frameHeight = mode === 'inline' ? Math.min(height, MAX_INLINE_HEIGHT) : undefined;
  return (
    <section
      ref={panelRef}
      className={`app-view app-view-${mode}${handle.prefersBorder === false ? ' app-view-borderless' : ''}`}
      data-testid="app-view"
      data-state={state.kind === 'ready' ? 'ready' : 'loading'}
      data-display-mode={mode}
      aria-label={`${tool} view from ${serverId}`}
      style={
        drag.style ??
        (dock !== null ? { bottom: dock, maxHeight: `calc(100vh - ${dock + 12}px)` } : undefined)
      }
    >
      <AppViewBar
        tool={tool}
        serverId={serverId}
        mode={mode}
        onMode={setMode}
        {...(mode === 'pip' ? { onDragStart: drag.onPointerDown } : {})}
      />
      <ExternalDomainsNote domains={externalOrigins(handle.csp)} />
      <IsolationNote focusEnforced={focusPolicyEnforced()} webRtcBlocked={handle.webRtcBlocked} />
      {missing.length > 0 && askPermissions && (
        <PermissionPrompt
          serverId={serverId}
          missing={missing}
          error={permissionError}
          onAllow={allowPermissions}
          onDismiss={() => setAskPermissions(false)}
        />
      )}
      {link && (
        <LinkPrompt
          url={link.url}
          onAnswer={(open) => {
            link.answer(open);
            setLink(null);
          }}
        />
      )}
      <div className="app-view-body" ref={boxRef}>
        <iframe
          ref={frameRef}
          src={handle.sandboxUrl}
          title={`${tool} view from ${serverId}`}
          data-testid="app-view-frame"
          data-view-id={handle.viewId}
          sandbox="allow-scripts allow-same-origin allow-forms"
          allow={[
            NO_FOCUS_STEALING,
            ...handle.permissions.granted.map((p) => `${FEATURES[p]} ${handle.sandboxOrigin}`),
          ].join('; ')}
          referrerPolicy="no-referrer"
          style={frameHeight !== undefined ? { height: frameHeight } : undefined}
        />
      </div>
      {refused && (
        <MessageNote message={refused} outsideChat={!conversationId} onDismiss={() => setRefused(null)} />
      )}
      <ViewRequests requests={approvals} />
    </section>
  );
}
