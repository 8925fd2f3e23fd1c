import { SwitchRow } from './switch-row.js';

/**
 * A server's "Show interactive views" switch (MCP Apps): on by default; off, its tools'
 * results show as text only and no view of it is opened.
 */
export function ViewsSwitch({
  serverId,
  enabled,
  disabled,
  onChange,
}: {
  serverId: string;
  enabled: boolean;
  disabled: boolean;
  onChange: (enabled: boolean) => void;
}) {
  return (
    <SwitchRow
      label="Show interactive views"
      checked={enabled}
      disabled={disabled}
      onChange={onChange}
      testId={`views-switch-${serverId}`}
      help={
        enabled
          ? 'Tools that come with a view show it under their result, in a sandbox that cannot reach the app.'
          : 'Tool results of this server show as text only.'
      }
    />
  );
}
