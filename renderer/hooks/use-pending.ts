import type { PendingRequest } from '../../shared/domain/pending.js';
import { useSnapshot } from './use-host-state.js';

const NONE: PendingRequest[] = [];

/**
 * Everything waiting on a person, from the store, so the nav badge and every view agree.
 * A host without the broker answers nothing is waiting: the queue stays empty.
 */
export function usePending(): PendingRequest[] {
  const s = useSnapshot('pending');
  return s.kind === 'ready' ? s.value : NONE;
}
