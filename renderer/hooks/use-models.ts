import { useEffect, useState } from 'react';
import type { ProviderId, ToolOffer } from '../../shared/domain/chat.js';
import type { HostError } from '../../shared/domain/server-state.js';
import { asHostError } from '../host/errors.js';
import { useHost, useHostEpoch } from '../host/host-context.js';

/** The models a provider lists; asked again when `refreshKey` changes (a key was set, a URL changed). */
export function useModels(
  provider: ProviderId | null,
  refreshKey: string,
): { models: string[]; error: HostError | null; loading: boolean } {
  const host = useHost();
  const epoch = useHostEpoch();
  const key = JSON.stringify([provider, refreshKey, epoch]);
  // The last answer, tagged with what it answered: a newer question reads as loading, and
  // keeps showing the previous models until its own answer lands.
  const [answer, setAnswer] = useState<{ key: string; models: string[]; error: HostError | null }>({
    key: '',
    models: [],
    error: null,
  });
  useEffect(() => {
    if (epoch === null || provider === null) return undefined;
    let live = true;
    host.invoke('chat.models', { provider }).then(
      (models) => {
        if (live) setAnswer({ key, models, error: null });
      },
      (e: unknown) => {
        if (live) setAnswer({ key, models: [], error: asHostError(e) });
      },
    );
    return () => {
      live = false;
    };
  }, [host, epoch, provider, refreshKey, key]);
  const asking = epoch !== null && provider !== null && answer.key !== key;
  return { models: answer.models, error: answer.error, loading: asking };
}

/** What the model would be offered now; asked again when `refreshKey` changes. */
export function useToolOffer(refreshKey: string, conversationId?: string): ToolOffer | null {
  const host = useHost();
  const epoch = useHostEpoch();
  const [offer, setOffer] = useState<ToolOffer | null>(null);
  useEffect(() => {
    if (epoch === null) return undefined;
    let live = true;
    host.invoke('chat.toolOffer', conversationId ? { conversationId } : {}).then(
      (o) => {
        if (live) setOffer(o);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [host, epoch, refreshKey, conversationId]);
  return offer;
}
