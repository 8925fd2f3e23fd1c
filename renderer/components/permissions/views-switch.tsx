import { useId } from 'react';

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
  const help = useId();
  return (
    <div className="trust-switch">
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={enabled}
          disabled={disabled}
          aria-describedby={help}
          onChange={(e) => onChange(e.target.checked)}
          data-testid={`views-switch-${serverId}`}
        />
        <span>Show interactive views</span>
      </label>
      <p id={help} className="muted trust-help">
        {enabled
          ? 'Tools that come with a view show it under their result, in a sandbox that cannot reach the app.'
          : 'Tool results of this server show as text only.'}
      </p>
    </div>
  );
}
