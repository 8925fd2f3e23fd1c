import { SwitchRow } from './switch-row.js';

/** What the views switch means, said once above many of them (the Permissions view). */
export const VIEWS_HELP =
  'Show interactive views: tools that come with a view show it under their result, in a sandbox that cannot reach the app. Off, a server’s tool results show as text only.';

/** The id of the shared explanation `VIEWS_HELP`, for `sharedHelp`. */
export const VIEWS_HELP_ID = 'perm-views-help';

/**
 * A server's "Show interactive views" switch (MCP Apps): on by default; off, its tools'
 * results show as text only and no view of it is opened. With `sharedHelp`, the explanation is
 * said once elsewhere (`VIEWS_HELP`).
 */
export function ViewsSwitch({
  serverId,
  enabled,
  disabled,
  onChange,
  sharedHelp = false,
}: {
  serverId: string;
  enabled: boolean;
  disabled: boolean;
  onChange: (enabled: boolean) => void;
  sharedHelp?: boolean;
}) {
  return (
    <SwitchRow
      label="Show interactive views"
      checked={enabled}
      disabled={disabled}
      onChange={onChange}
      testId={`views-switch-${serverId}`}
      describedBy={sharedHelp ? VIEWS_HELP_ID : undefined}
      help={
        sharedHelp
          ? undefined
          : enabled
            ? 'Tools that come with a view show it under their result, in a sandbox that cannot reach the app.'
            : 'Tool results of this server show as text only.'
      }
    />
  );
}
