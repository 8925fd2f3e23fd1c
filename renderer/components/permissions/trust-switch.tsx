import type { ServerTrust } from '../../../shared/domain/permissions.js';
import { SwitchRow } from './switch-row.js';

/** What trust means, said once above many Trust switches (the Permissions view). */
export const TRUST_HELP =
  'Trust lets every tool of a server run without asking you first; without it, each tool call asks, unless you chose “Always allow” for that tool. Trust holds for the server’s current command or address: if that changes, you are asked again. Calls naming files outside your shared folders always ask.';

/** The id of the shared explanation `TRUST_HELP`, for `sharedHelp`. */
export const TRUST_HELP_ID = 'perm-trust-help';

/**
 * A server's Trust switch, with what trust means (and, for trust written in the config entry,
 * that turning it off edits that entry); with `sharedHelp`, the meaning is said once elsewhere
 * (`TRUST_HELP`) and only the config note stays.
 */
export function TrustSwitch({
  serverId,
  trust,
  disabled,
  onChange,
  sharedHelp = false,
}: {
  serverId: string;
  trust: ServerTrust;
  disabled: boolean;
  onChange: (trusted: boolean) => void;
  sharedHelp?: boolean;
}) {
  const configNote =
    trust.source === 'config'
      ? ' Trust is set in this server’s configuration; turning it off edits the configuration and restarts the server.'
      : '';
  if (sharedHelp) {
    return (
      <SwitchRow
        label={`Trust ${serverId}`}
        checked={trust.trusted}
        disabled={disabled}
        onChange={onChange}
        testId={`trust-switch-${serverId}`}
        help={configNote ? configNote.trim() : undefined}
        describedBy={TRUST_HELP_ID}
      />
    );
  }
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
          {configNote}
        </>
      }
    />
  );
}
