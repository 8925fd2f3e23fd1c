import type { ServerTrust } from '../../../shared/domain/permissions.js';
import { SwitchRow } from './switch-row.js';

/**
 * A server's Trust switch, with what trust means (and, for trust written in the config entry,
 * that turning it off edits that entry).
 */
export function TrustSwitch({
  serverId,
  trust,
  disabled,
  onChange,
}: {
  serverId: string;
  trust: ServerTrust;
  disabled: boolean;
  onChange: (trusted: boolean) => void;
}) {
  return (
    <SwitchRow
      label={`Trust ${serverId}`}
      checked={trust.trusted}
      disabled={disabled}
      onChange={onChange}
      testId={`trust-switch-${serverId}`}
      help={
        <>
          {trust.trusted
            ? 'Every tool of this server runs without asking you first.'
            : 'Each tool call asks you first, unless you chose “Always allow” for that tool.'}{' '}
          Trust holds for the server’s current command or address: if that changes, you are asked again. Calls
          naming files outside your shared folders always ask.
          {trust.source === 'config' &&
            ' Trust is set in this server’s configuration; turning it off edits the configuration and restarts the server.'}
        </>
      }
    />
  );
}
