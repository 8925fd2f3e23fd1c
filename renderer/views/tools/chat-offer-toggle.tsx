import type { SettingsHandle } from '../../hooks/use-chat-settings.js';

/**
 * Whether chat offers a server's tools, or one tool, to the model. Off is remembered in
 * settings (`disabledServers`, `disabledTools` as `server/tool`); the tool stays callable here.
 */
export function ChatOfferToggle({
  handle,
  serverId,
  tool,
}: {
  handle: SettingsHandle;
  serverId: string;
  tool?: string;
}) {
  const s = handle.settings;
  if (!s) return null;
  const key = tool ? `${serverId}/${tool}` : serverId;
  const list = tool ? s.disabledTools : s.disabledServers;
  const on = !list.includes(key);
  const toggle = () => {
    const next = on ? [...list, key] : list.filter((k) => k !== key);
    void handle.update(tool ? { disabledTools: next } : { disabledServers: next });
  };
  const label = tool
    ? `Offer ${tool} to the model in chat`
    : `Offer ${serverId}'s tools to the model in chat`;
  return (
    <label className="chat-offer" title={label}>
      <input
        type="checkbox"
        checked={on}
        onChange={toggle}
        aria-label={label}
        data-testid={tool ? `chat-offer-${serverId}-${tool}` : `chat-offer-${serverId}`}
      />
      <span className="muted">chat</span>
    </label>
  );
}
