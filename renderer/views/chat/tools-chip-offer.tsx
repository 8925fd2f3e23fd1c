import { useState } from 'react';
import type { CatalogTool } from '../../../shared/domain/catalog.js';
import type { OfferMode } from '../../../shared/domain/tool-selection.js';
import { useHost } from '../../host/host-context.js';
import { useChatSettings } from '../../hooks/use-chat-settings.js';
import { useToolOffer } from '../../hooks/use-models.js';

/**
 * The tools chip's part about tool selection: this chat's own mode (or the settings'), and the
 * tools pinned to "always offer", which can be pinned and unpinned here as in the Tools view.
 */
export function ToolsChipOffer({
  conversationId,
  tools,
  ensureConversation,
}: {
  conversationId: string | null;
  tools: readonly CatalogTool[];
  ensureConversation: () => Promise<string>;
}) {
  const host = useHost();
  const handle = useChatSettings();
  const [epoch, setEpoch] = useState(0);
  const offer = useToolOffer(`${conversationId ?? ''} ${epoch}`, conversationId ?? undefined);
  const [draft, setDraft] = useState('');
  const pinned = handle.settings?.alwaysOffer ?? [];
  const own = offer?.overrides?.mode;
  const setMode = async (value: string) => {
    const id = await ensureConversation();
    const mode: OfferMode | null = value === 'search' || value === 'all' ? value : null;
    await host.invoke('chat.setOfferSettings', { conversationId: id, mode });
    setEpoch((n) => n + 1);
  };
  const pin = (key: string) => void handle.update({ alwaysOffer: [...pinned.filter((k) => k !== key), key] });
  const unpin = (key: string) => void handle.update({ alwaysOffer: pinned.filter((k) => k !== key) });
  const keys = tools.map((t) => `${t.serverId}/${t.tool.name}`);
  return (
    <div className="tools-chip-offer" data-testid="tools-chip-offer">
      <label className="inline-row">
        <span>Tools per request in this chat</span>
        <select
          value={own ?? ''}
          onChange={(e) => void setMode(e.target.value)}
          data-testid="chat-offer-mode"
        >
          <option value="">
            As in Chat settings ({offer?.budget?.mode === 'all' && !own ? 'all' : 'search'})
          </option>
          <option value="search">Search (bounded, the model searches)</option>
          <option value="all">All tools (up to the limit)</option>
        </select>
      </label>
      <div className="section-title">Always offered</div>
      {pinned.length === 0 && (
        <p className="muted small-note">None: pin a tool to declare it on every request.</p>
      )}
      <ul className="tools-popover-list">
        {pinned.map((key) => (
          <li key={key} data-testid="pinned-tool">
            <span className="switch-name">{key}</span>
            <button type="button" className="small" onClick={() => unpin(key)} aria-label={`Unpin ${key}`}>
              Unpin
            </button>
          </li>
        ))}
      </ul>
      <form
        className="inline-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (keys.includes(draft)) pin(draft);
          setDraft('');
        }}
      >
        <input
          list="pin-tool-keys"
          placeholder="server/tool to pin"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          aria-label="Tool to pin"
          data-testid="pin-tool-input"
        />
        <datalist id="pin-tool-keys">
          {keys.slice(0, 2000).map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
        <button type="submit" className="small" disabled={!keys.includes(draft)} data-testid="pin-tool">
          Pin
        </button>
      </form>
    </div>
  );
}
