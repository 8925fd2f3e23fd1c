import { ipcMain, type IpcMainInvokeEvent, type WebFrameMain } from 'electron';
import { INVOKE_CHANNEL } from '../../shared/ipc/electron-channels.js';
import type { HostRouter, RouteResult } from '../host/router.js';

/**
 * True only for our own renderer's top frame: a subframe, a foreign page that somehow
 * loaded, or a destroyed frame is refused before any payload is looked at.
 */
export function isTrustedSender(
  frame: Pick<WebFrameMain, 'url' | 'parent'> | null | undefined,
  allowedUrl: string,
): boolean {
  if (!frame) return false;
  if (frame.parent !== null) return false;
  const base = (u: string) => u.split('#')[0].split('?')[0];
  return base(frame.url) === base(allowedUrl);
}

/** Bind the contract's invoke channel to the router, behind the sender check. */
export function installIpcGate(router: HostRouter, allowedUrl: () => string): () => void {
  const handler = async (
    event: IpcMainInvokeEvent,
    channel: unknown,
    payload: unknown,
  ): Promise<RouteResult> => {
    if (!isTrustedSender(event.senderFrame, allowedUrl())) {
      return { ok: false, error: { code: 'forbidden', message: 'IPC from an untrusted frame was refused' } };
    }
    return router.handle(channel, payload);
  };
  ipcMain.handle(INVOKE_CHANNEL, handler);
  return () => ipcMain.removeHandler(INVOKE_CHANNEL);
}
