import type { ParsedRequestOf, RequestChannel, ResponseOf } from '../../shared/ipc/contract.js';

/**
 * One handler per channel of `C`, taking the request as its zod schema parsed it. The router
 * binds every channel; a domain's route file (chat-routes.ts, bundle-routes.ts…) binds its own.
 */
export type HandlersOf<C extends RequestChannel> = {
  [K in C]: (req: ParsedRequestOf<K>) => Promise<ResponseOf<K>> | ResponseOf<K>;
};
