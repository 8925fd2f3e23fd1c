import type { PendingRequest } from '../../shared/domain/pending.js';
import type { ServerSummary } from '../../shared/domain/server-state.js';

/** What the tray shows: its tooltip, whether it asks for attention, and its status lines. */
export interface TrayState {
  tooltip: string;
  /** Something waits on the person or a server is down: the icon gets a dot. */
  attention: boolean;
  serversLine: string;
  /** Undefined when nothing is waiting. */
  pendingLine?: string;
  /** Names of enabled servers that failed, for the menu. */
  failed: string[];
}

/**
 * The tray's state from the server list and the pending queue. Plain data with no
 * `electron` import, so it is unit-tested in Node while the Tray itself cannot be.
 */
export function trayState(servers: readonly ServerSummary[], pending: readonly PendingRequest[]): TrayState {
  const enabled = servers.filter((s) => s.state.kind !== 'disabled');
  const up = enabled.filter((s) => s.state.kind === 'connected').length;
  const failed = enabled.filter((s) => s.state.kind === 'failed' || s.config === null).map((s) => s.id);
  const serversLine =
    enabled.length === 0
      ? 'No servers enabled'
      : `${up} of ${enabled.length} server${enabled.length === 1 ? '' : 's'} connected`;
  const pendingLine =
    pending.length === 0
      ? undefined
      : `${pending.length} request${pending.length === 1 ? '' : 's'} waiting for you`;
  const parts = [
    'MCP Desk',
    serversLine,
    ...(failed.length ? [`${failed.length} failed`] : []),
    ...(pendingLine ? [pendingLine] : []),
  ];
  return {
    tooltip: parts.join(' · '),
    attention: pending.length > 0 || failed.length > 0,
    serversLine,
    ...(pendingLine ? { pendingLine } : {}),
    failed,
  };
}

/**
 * The tray icon's pixels (BGRA, as nativeImage.createFromBitmap wants): the app's blue
 * rounded square, with an orange dot in the corner when something needs attention. Drawn
 * in code so no image file has to be found at run time inside the packaged app.
 */
export function trayBitmap(size: number, attention: boolean): Buffer {
  const out = Buffer.alloc(size * size * 4);
  const radius = size / 5;
  const dot = { cx: size * 0.75, cy: size * 0.25, r: size * 0.25 };
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      const cx = Math.min(Math.max(px, radius), size - radius);
      const cy = Math.min(Math.max(py, radius), size - radius);
      const inSquare = Math.min(1, Math.max(0, radius - Math.hypot(px - cx, py - cy) + 0.5));
      const inDot = attention
        ? Math.min(1, Math.max(0, dot.r - Math.hypot(px - dot.cx, py - dot.cy) + 0.5))
        : 0;
      // BGRA: blue square (#2f6feb) under an orange dot (#f0883e).
      const [r, g, b] = inDot > 0 ? [0xf0, 0x88, 0x3e] : [0x2f, 0x6f, 0xeb];
      const alpha = Math.round(255 * Math.max(inSquare, inDot));
      out.set([b, g, r, alpha], (y * size + x) * 4);
    }
  }
  return out;
}
