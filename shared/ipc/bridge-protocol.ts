import { z } from 'zod';
import type { HostError } from './host-error.js';

/**
 * Frames on the WebSocket bridge (browser mode). The payloads inside are the contract's;
 * these frames only carry them and match replies to calls.
 */

/** Renderer -> host: one call. */
export const invokeFrameSchema = z
  .object({
    type: z.literal('invoke'),
    id: z.number().int().nonnegative(),
    channel: z.string().min(1).max(100),
    payload: z.unknown(),
  })
  .strict();

export type InvokeFrame = z.infer<typeof invokeFrameSchema>;

/** Host -> renderer: the answer to one call, or an event. */
export type HostFrame =
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: HostError }
  | { type: 'event'; event: string; payload: unknown };

/** The path the bridge's WebSocket listens on. */
export const BRIDGE_PATH = '/bridge';
