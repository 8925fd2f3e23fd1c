import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type {
  EventChannel,
  EventOf,
  HostApi,
  RequestChannel,
  RequestOf,
  ResponseOf,
} from '../../shared/ipc/contract.js';
import { isEventName } from '../../shared/ipc/event-names.js';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../shared/ipc/electron-channels.js';
import type { HostError } from '../../shared/ipc/host-error.js';

/**
 * The only thing the sandboxed renderer gets: `window.host`, the contract's HostApi over
 * two fixed IPC channels. No ipcRenderer, no generic send. A rejection is the host's HostError
 * passed through untouched (the renderer's converter in renderer/host/errors.ts reads it).
 */
type RouteResult = { ok: true; value: unknown } | { ok: false; error: HostError };

const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();

ipcRenderer.on(EVENT_CHANNEL, (_e: IpcRendererEvent, event: unknown, payload: unknown) => {
  if (!isEventName(event)) return;
  for (const l of listeners.get(event) ?? []) l(payload);
});

const host: HostApi = {
  async invoke<C extends RequestChannel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
    const result = (await ipcRenderer.invoke(INVOKE_CHANNEL, channel, request)) as RouteResult;
    if (result.ok) return result.value as ResponseOf<C>;
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- contextBridge keeps only an Error's message; the plain HostError crosses whole
    throw result.error;
  },
  on<E extends EventChannel>(event: E, listener: (payload: EventOf<E>) => void): () => void {
    if (!isEventName(event)) throw new Error(`unknown event ${String(event)}`);
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    const l = listener as (payload: unknown) => void;
    set.add(l);
    return () => set.delete(l);
  },
  // A dropped File's path exists only here: the sandboxed page cannot see it (Electron 32
  // removed File.path). Anything that is not a File gets "" rather than an exception.
  pathForFile(file: unknown): string {
    try {
      return webUtils.getPathForFile(file as File);
    } catch {
      return '';
    }
  },
};

contextBridge.exposeInMainWorld('host', host);
