import { z } from 'zod';

/**
 * What every group of channels (shared/ipc/channels/*) builds on: the phantom marker for
 * response types and the few request fields several groups share.
 */

/** Phantom marker carrying a TypeScript type without a runtime value. */
export function typed<T>(): T {
  return undefined as unknown as T;
}

/** A server's id (its name in the config). */
export const serverId = z.string().min(1).max(64);
/** The request of a channel that takes nothing. */
export const empty = z.object({}).strict();
/** A conversation's id. */
export const convId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not a conversation id');
/** Which model provider. */
export const providerId = z.enum(['gemini', 'openai']);
