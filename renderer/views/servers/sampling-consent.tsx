import { useCallback, useEffect, useState } from 'react';
import type { SamplingConsent } from '../../../shared/domain/pending.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { useHostEvent } from '../../hooks/use-host-state.js';

const LABELS: Record<SamplingConsent, string> = {
  ask: 'Ask me each time',
  session: 'Allow for this session',
  always: 'Always allow',
  never: 'Never allow',
};

/**
 * A server's standing answer to sampling requests (the review card's "remember" choice
 * lands here too), and whether its model replies are shown for review before returning.
 */
export function SamplingConsentControl({ serverId }: { serverId: string }) {
  const host = useHost();
  const [value, setValue] = useState<{ consent: SamplingConsent; skipReplyReview: boolean } | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  // A review card's "remember" or a Revoke on the Permissions view changes it elsewhere: read it again.
  const [changes, setChanges] = useState(0);
  useHostEvent(
    'permissions.changed',
    useCallback(() => setChanges((n) => n + 1), []),
  );

  useEffect(() => {
    let live = true;
    host.invoke('sampling.consent.get', { serverId }).then(
      (v) => live && setValue(v),
      (e: unknown) => live && setError(asHostError(e)),
    );
    return () => {
      live = false;
    };
  }, [host, serverId, changes]);

  const save = (patch: { consent?: SamplingConsent; skipReplyReview?: boolean }) => {
    if (!value) return;
    host
      .invoke('sampling.consent.set', {
        serverId,
        consent: patch.consent ?? value.consent,
        skipReplyReview: patch.skipReplyReview ?? value.skipReplyReview,
      })
      .then(
        (v) => {
          setValue(v);
          setError(null);
        },
        (e: unknown) => setError(asHostError(e)),
      );
  };

  if (!value) return error ? <ErrorBox error={error} /> : null;
  return (
    <div className="sampling-consent" data-testid="sampling-consent">
      <label>
        When this server asks to use the model{' '}
        <select
          value={value.consent}
          onChange={(e) => save({ consent: e.target.value as SamplingConsent })}
          data-testid="sampling-consent-select"
        >
          {(Object.keys(LABELS) as SamplingConsent[]).map((k) => (
            <option key={k} value={k}>
              {LABELS[k]}
            </option>
          ))}
        </select>
      </label>
      <label>
        <input
          type="checkbox"
          checked={value.skipReplyReview}
          onChange={(e) => save({ skipReplyReview: e.target.checked })}
        />{' '}
        Return the model's reply without showing it to me first
      </label>
      {error && <ErrorBox error={error} />}
    </div>
  );
}
