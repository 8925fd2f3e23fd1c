import type { HostApi } from '../../shared/ipc/contract.js';

/** How the renderer is attached to the host right now (shown by the banner). */
export type LinkStatus =
  | { kind: 'connecting'; attempt: number }
  | { kind: 'open'; epoch: number }
  | { kind: 'waiting'; attempt: number; retryAt: number; reason: string }
  /** No token in the address or this tab (missing), or the host refused the one we had (rejected). */
  | { kind: 'no-token'; reason: 'missing' | 'rejected' };

/** A HostApi plus the state of the channel under it. */
export interface HostLink {
  readonly api: HostApi;
  status(): LinkStatus;
  onStatus(listener: () => void): () => void;
  /** Skip the reconnect backoff and try now, where the link reconnects at all. */
  retryNow?(): void;
}

/** The preload's channel is part of the window: it is always open. */
export function staticLink(api: HostApi): HostLink {
  const open: LinkStatus = { kind: 'open', epoch: 0 };
  return { api, status: () => open, onStatus: () => () => undefined };
}
