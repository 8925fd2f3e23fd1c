import { useChatSettings } from '../hooks/use-chat-settings.js';

/**
 * Pin a tool to "always offer": in search mode it is declared to the model on every request,
 * whatever the conversation is about (kept in the chat settings' `alwaysOffer`).
 */
export function AlwaysOfferToggle({ serverId, tool }: { serverId: string; tool: string }) {
  const handle = useChatSettings();
  const s = handle.settings;
  if (!s) return null;
  const key = `${serverId}/${tool}`;
  const list = s.alwaysOffer ?? [];
  const on = list.includes(key);
  return (
    <label
      className="chat-offer"
      title="Declare this tool to the model on every request, not only when search finds it"
    >
      <input
        type="checkbox"
        checked={on}
        onChange={() =>
          void handle.update({ alwaysOffer: on ? list.filter((k) => k !== key) : [...list, key] })
        }
        data-testid={`always-offer-${serverId}-${tool}`}
      />
      <span>Always offer</span>
    </label>
  );
}
