import {
  AppBridge,
  PostMessageTransport,
  type McpUiDisplayMode,
  type McpUiHostCapabilities,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { SANDBOX_FORGET_SUFFIX, type AppViewHandle } from '../../../shared/domain/mcp-apps.js';
import type { CallToolResult } from '../../../shared/domain/mcp-types.js';
import type { HostApi } from '../../../shared/ipc/contract.js';
import { AppRequestError, callApp } from './app-channels.js';
import type { RefusedMessage } from './view-requests.js';

/** How long the view gets to answer `ui/resource-teardown` before it is removed anyway. */
const TEARDOWN_TIMEOUT_MS = 2000;
/** How long the page that clears a closed view's storage gets to load. */
const FORGET_TIMEOUT_MS = 3000;

/** What a session asks of the frame that shows it. */
export interface ViewSessionHooks {
  context(): McpUiHostContext;
  onInitialized(): void;
  onSize(height: number): void;
  /** The view asks for a mode both sides declared; answers the mode now in effect. */
  onDisplayMode(mode: McpUiDisplayMode): McpUiDisplayMode;
  /** Ask the person before a link leaves the app. */
  confirmLink(url: string): Promise<boolean>;
  /** The view's `ui/message` reached no conversation: the person hears of it (the view gets the error too). */
  onMessageRefused(message: RefusedMessage): void;
}

/**
 * One view's conversation with the app: the SDK's AppBridge over postMessage to the sandbox
 * proxy, given NO MCP client. Handed one, the bridge would forward the view's tools/call
 * without checking visibility and take over the client's list-changed handlers; instead every
 * request goes through our contract to the host, which checks it against the view's server.
 */
export class ViewSession {
  private readonly bridge: AppBridge;
  private readonly transport: PostMessageTransport;
  private readonly guard: (event: MessageEvent) => void;
  private closed = false;

  constructor(
    private readonly host: HostApi,
    private readonly handle: AppViewHandle,
    frame: Window,
    private readonly hooks: ViewSessionHooks,
  ) {
    const { viewId } = handle;
    const capabilities: McpUiHostCapabilities = {
      openLinks: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      updateModelContext: { text: {}, structuredContent: {} },
      message: { text: {} },
      sandbox: { csp: handle.csp, permissions: permissionsMap(handle.permissions.granted) },
    };
    this.bridge = new AppBridge(null, { name: 'MCP Desk', version: '0.1.0' }, capabilities, {
      hostContext: hooks.context(),
    });
    // The SDK's transport posts with target "*" and checks only the source window. Ours is
    // told the sandbox origin, so a proxy frame that somehow navigated elsewhere gets nothing.
    const target = { postMessage: (message: unknown) => frame.postMessage(message, handle.sandboxOrigin) };
    this.transport = new PostMessageTransport(target as unknown as Window, frame);
    // Registered before the transport's own listener: a message from the frame's window that
    // is not from the sandbox origin stops here.
    this.guard = (event) => {
      if (event.source !== frame) return;
      if (event.origin !== handle.sandboxOrigin) event.stopImmediatePropagation();
      else if (!plausibleId(event.data)) {
        // JSON-RPC ids are short; a huge one is an attempt to make us echo it (and hold it) forever.
        event.stopImmediatePropagation();
        console.warn(
          `MCP App view ${handle.toolName} (${handle.serverId}): malformed message ignored (oversized id)`,
        );
      }
    };
    window.addEventListener('message', this.guard);

    const b = this.bridge;
    b.onsandboxready = () => {
      void b.sendSandboxResourceReady({
        html: handle.html,
        csp: handle.csp,
        permissions: permissionsMap(handle.permissions.granted),
      });
    };
    b.oninitialized = () => hooks.onInitialized();
    b.onsizechange = ({ height }) => {
      if (typeof height === 'number' && Number.isFinite(height)) hooks.onSize(height);
    };
    b.onrequestdisplaymode = async ({ mode }) => {
      const both = (b.getAppCapabilities()?.availableDisplayModes ?? ['inline']).includes(mode);
      return {
        mode: both ? hooks.onDisplayMode(mode) : hooks.onDisplayMode(hooks.context().displayMode ?? 'inline'),
      };
    };
    // Our results mirror the wire shape with open types (shared/domain/mcp-types.ts); the SDK's
    // are its zod-derived unions of the same JSON, hence the one cast at this boundary.
    b.oncalltool = async (params) =>
      (await callApp(host, 'apps.callTool', {
        viewId,
        tool: params.name,
        args: params.arguments ?? {},
      })) as Awaited<ReturnType<NonNullable<AppBridge['oncalltool']>>>;
    b.onreadresource = async (params) =>
      (await callApp(host, 'apps.readResource', { viewId, uri: params.uri })) as Awaited<
        ReturnType<NonNullable<AppBridge['onreadresource']>>
      >;
    b.onloggingmessage = ({ level, logger, data }) => {
      void callApp(host, 'apps.log', { viewId, level, data, ...(logger ? { logger } : {}) }).catch(
        () => undefined,
      );
    };
    b.onmessage = async ({ content }) => {
      try {
        await callApp(host, 'apps.message', { viewId, content });
      } catch (error) {
        if (error instanceof AppRequestError) {
          const text = content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
          hooks.onMessageRefused({ text, error: error.hostError });
        }
        throw error;
      }
      return {};
    };
    b.onupdatemodelcontext = async ({ content, structuredContent }) => {
      await callApp(host, 'apps.updateModelContext', {
        viewId,
        ...(content ? { content } : {}),
        ...(structuredContent ? { structuredContent } : {}),
      });
      return {};
    };
    b.onopenlink = async ({ url }) => {
      if (!(await hooks.confirmLink(url))) return { isError: true };
      const { opened } = await callApp(host, 'apps.openLink', { viewId, url });
      return opened ? {} : { isError: true };
    };
  }

  /** Connect to the proxy; it announces itself with sandbox-proxy-ready once its page runs. */
  async start(): Promise<void> {
    await this.bridge.connect(this.transport);
  }

  /** The display modes the view declared in `ui/initialize`. */
  appModes(): McpUiDisplayMode[] {
    return this.bridge.getAppCapabilities()?.availableDisplayModes ?? [];
  }

  sendInput(args: Record<string, unknown>): void {
    void this.bridge.sendToolInput({ arguments: args }).catch(() => undefined);
  }

  sendPartialInput(args: Record<string, unknown>): void {
    void this.bridge.sendToolInputPartial({ arguments: args }).catch(() => undefined);
  }

  sendResult(result: CallToolResult): void {
    // Our domain type is the wire's, only looser about resource contents.
    const wire = result as Parameters<AppBridge['sendToolResult']>[0];
    void this.bridge.sendToolResult(wire).catch(() => undefined);
  }

  /** Tell the view the host context changed (theme, size, display mode). */
  contextChanged(): void {
    if (!this.closed) this.bridge.setHostContext(this.hooks.context());
  }

  /**
   * Ask the view to save its state (`ui/resource-teardown`, awaited up to a timeout), then
   * drop the link, clear what the view stored on its origin, and tell the host the view is gone
   * (after which its origin answers nothing).
   */
  async close(politely: boolean): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (politely)
      await this.bridge.teardownResource({}, { timeout: TEARDOWN_TIMEOUT_MS }).catch(() => undefined);
    window.removeEventListener('message', this.guard);
    await this.bridge.close().catch(() => undefined);
    await forgetStorage(`${this.handle.sandboxUrl}${SANDBOX_FORGET_SUFFIX}`);
    await this.host.invoke('apps.close', { viewId: this.handle.viewId }).catch(() => undefined);
  }
}

/**
 * Load the view origin's forget page in a hidden frame: its Clear-Site-Data header drops what
 * the view kept there (storage, caches, cookies), in the same storage partition the view used.
 */
function forgetStorage(url: string): Promise<void> {
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.title = 'Clearing a closed view';
    frame.src = url;
    const done = () => {
      window.clearTimeout(timer);
      frame.remove();
      resolve();
    };
    const timer = window.setTimeout(done, FORGET_TIMEOUT_MS);
    frame.addEventListener('load', done, { once: true });
    document.body.appendChild(frame);
  });
}

/** The spec's permissions object (`{ camera: {} }`) for the permissions granted. */
function permissionsMap(granted: AppViewHandle['permissions']['granted']): Record<string, object> {
  return Object.fromEntries(granted.map((p) => [p, {}]));
}

/** A JSON-RPC id we are willing to answer: absent, a short string, or a safe integer. */
function plausibleId(data: unknown): boolean {
  if (typeof data !== 'object' || data === null || !('id' in data)) return true;
  const id = data.id;
  return (typeof id === 'string' && id.length <= 256) || (typeof id === 'number' && Number.isSafeInteger(id));
}
