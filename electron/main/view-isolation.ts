import type { CommandLine, Session, WebContents } from 'electron';
import { externalOrigins } from '../../shared/domain/mcp-apps.js';
import type { OpenView } from '../host/apps/app-views.js';
import type { ViewLookup } from './request-filter.js';
import { sandboxOriginFor, viewIdOfOrigin, type SandboxHooks } from './sandbox-scheme.js';
import { startRefusingProxy, viewProxyConfig, WEBRTC_IP_POLICY, type RefusingProxy } from './webrtc-block.js';

/**
 * The desktop app's side of keeping MCP App views apart from each other and from the person's
 * keyboard and network (issue 28). Each view has its own origin on the sandbox scheme
 * (sandbox-scheme.ts); what is set here reaches beyond what a page's headers can say:
 * - the Chromium feature that enforces the `focus-without-user-activation` policy every view
 *   frame is denied (Chrome has it on from 149; Electron's Chromium needs the switch);
 * - WebRTC stopped in the network for every webContents (webrtc-block.ts);
 * - the session's proxy rules following the open views' declared hosts;
 * - a closed view's storage cleared with it.
 */

/** The Blink feature behind `focus-without-user-activation`. */
export const FOCUS_POLICY_FEATURE = 'BlockingFocusWithoutUserActivation';

/**
 * Before ready: add the feature to `--enable-features` and `--enable-blink-features`, keeping any
 * others given there. Either switch turns it on in Chromium 156; both are set so that an
 * Electron whose Chromium knows only one of the two names still enforces the policy.
 */
export function enableFocusPolicy(commandLine: Pick<CommandLine, 'getSwitchValue' | 'appendSwitch'>): void {
  for (const name of ['enable-features', 'enable-blink-features']) {
    const given = commandLine
      .getSwitchValue(name)
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    if (given.includes(FOCUS_POLICY_FEATURE)) continue;
    // A second appendSwitch replaces the first value, hence the merged list.
    commandLine.appendSwitch(name, [...given, FOCUS_POLICY_FEATURE].join(','));
  }
}

/** Every webContents: WebRTC sends no UDP and no TCP but through the session's proxy. */
export function blockWebRtcIn(contents: Pick<WebContents, 'setWebRTCIPHandlingPolicy'>): void {
  contents.setWebRTCIPHandlingPolicy(WEBRTC_IP_POLICY);
}

/** The open view at a sandbox origin, for the request filter and the permission checks. */
export function viewLookup(find: (viewId: string) => OpenView | undefined): ViewLookup {
  return (origin) => {
    const viewId = viewIdOfOrigin(origin);
    const view = viewId ? find(viewId) : undefined;
    return view && { declared: externalOrigins(view.csp), granted: view.granted };
  };
}

/**
 * One session's network rules for views and their storage: the refusing proxy, the declared
 * hosts of open views that bypass it (set before a view's handle goes out, so its first fetch
 * already passes), and each view's storage cleared when it closes.
 */
export class ViewIsolation {
  private readonly declared = new Map<string, string[]>();
  private applied: Promise<void> = Promise.resolve();

  private constructor(
    private readonly session: Pick<Session, 'setProxy' | 'clearStorageData'>,
    private readonly proxy: RefusingProxy,
  ) {}

  /** Start the refusing proxy and route the session through it before any page loads. */
  static async start(session: Pick<Session, 'setProxy' | 'clearStorageData'>): Promise<ViewIsolation> {
    const isolation = new ViewIsolation(session, await startRefusingProxy());
    await isolation.apply();
    return isolation;
  }

  /** What the sandbox endpoint adds: WebRTC blocked, the view's rules on open, cleanup on close. */
  hooks(): SandboxHooks {
    return {
      webRtcBlocked: true,
      opened: (view) => this.opened(view),
      closed: (viewId) => this.closed(viewId),
    };
  }

  /** The refusing proxy's port (tests and diagnostics). */
  get proxyPort(): number {
    return this.proxy.port;
  }

  /** Connections the refusing proxy turned away so far (tests and diagnostics). */
  refused(): number {
    return this.proxy.refused();
  }

  async opened(view: OpenView): Promise<void> {
    this.declared.set(view.viewId, externalOrigins(view.csp));
    await this.apply();
  }

  closed(viewId: string): void {
    this.declared.delete(viewId);
    void this.apply().catch(() => undefined);
    // Nothing else can ever load this origin again; what the view stored goes with it.
    void this.session.clearStorageData({ origin: sandboxOriginFor(viewId) }).catch(() => undefined);
  }

  /** At quit: clear the storage of views still open (their origins are never used again). */
  async forget(viewIds: readonly string[]): Promise<void> {
    await Promise.all(
      viewIds.map((id) =>
        this.session.clearStorageData({ origin: sandboxOriginFor(id) }).catch(() => undefined),
      ),
    );
  }

  async dispose(): Promise<void> {
    await this.proxy.close();
  }

  /** Set the rules for the views open now, after any earlier setting (they must not cross). */
  private apply(): Promise<void> {
    const next = this.applied
      .catch(() => undefined)
      .then(() =>
        this.session.setProxy(viewProxyConfig(this.proxy.port, [...this.declared.values()].flat())),
      );
    this.applied = next;
    return next;
  }
}
