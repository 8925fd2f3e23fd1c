import { z } from 'zod';
import { empty, typed } from './channel-kit.js';

/**
 * An uncaught error in a renderer (its window's `error` or `unhandledrejection`), forwarded so
 * it lands in the app's log. Capped: a page stuck in an error loop must not flood the host.
 */
const rendererError = z
  .object({
    kind: z.enum(['error', 'unhandledrejection']),
    message: z.string().max(2_000),
    stack: z.string().max(8_000).optional(),
    /** `file:line:column` of an `error` event. */
    where: z.string().max(500).optional(),
    /** Which view it happened in (`main`, `quick-ask`). */
    view: z.string().max(40).optional(),
  })
  .strict();

/** Local crash and error reports: nothing is ever sent anywhere. */
export const diagnosticsChannels = {
  /** The "Copy diagnostics" text: versions, OS, data folder, servers' states; no secret, no config value. */
  'diagnostics.get': { request: empty, response: typed<{ text: string }>() },
  /** Log a renderer's uncaught error (with the app version and time) in the app's log. */
  'diagnostics.reportError': { request: rendererError, response: typed<null>() },
} as const;

/** What a renderer reports about one of its uncaught errors. */
export type RendererErrorReport = z.infer<typeof rendererError>;
