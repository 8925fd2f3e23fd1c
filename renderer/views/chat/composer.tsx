import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { CatalogPrompt } from '../../../shared/domain/catalog.js';
import { useCatalog } from '../../hooks/use-catalog.js';
import { useServersWith } from '../../hooks/use-server-capabilities.js';
import { useServers } from '../../hooks/use-servers.js';
import { filterPrompts, PromptMenu } from './prompt-menu.js';
import { PromptInsert } from './prompt-insert.js';
import { isPicked, ResourcePicker, type PickedResource } from './resource-picker.js';
import { useChatHandoff } from './use-chat-handoff.js';
import { AttachmentChip } from './attachment-chip.js';
import { Icon } from '../../components/icons.js';

/** What the composer hands over when the person sends. */
export interface Draft {
  text: string;
  attachments: PickedResource[];
}

/** `/` then a name with no space yet: the prompt menu is open for it. */
const SLASH = /^\/(\S*)$/;

/**
 * The message box: Enter sends, Shift+Enter breaks the line; Attach adds resources as
 * context; `/` at the start picks a server prompt whose text is inserted for editing.
 * `onSend` resolves true when the message went out (the box is then cleared).
 */
export function Composer({
  running,
  stopping,
  disabled,
  onSend,
  onStop,
  extra,
}: {
  running: boolean;
  stopping: boolean;
  disabled: boolean;
  onSend: (draft: Draft) => Promise<boolean>;
  onStop: () => void;
  /** Shown in the composer's bar above the box (the tools chip). */
  extra?: ReactNode;
}) {
  const catalog = useCatalog();
  const completers = useServersWith(useServers(), 'completions');
  const [text, setText] = useState('');
  const [attachments, setAttachments] = useState<PickedResource[]>([]);
  const [picking, setPicking] = useState(false);
  const [sending, setSending] = useState(false);
  const [menuIndex, setMenuIndex] = useState(0);
  // Escape closes the menu until the text changes again.
  const [menuDismissedFor, setMenuDismissedFor] = useState<string | null>(null);
  const [chosen, setChosen] = useState<CatalogPrompt | null>(null);
  const input = useRef<HTMLTextAreaElement | null>(null);
  // "Use in chat" / "Attach to chat" from the Prompts and Resources views land here.
  useChatHandoff({ setText, setAttachments, input });

  const prompts = catalog.kind === 'ready' ? catalog.catalog.prompts : [];
  const resources = catalog.kind === 'ready' ? catalog.catalog.resources : [];
  const slash = SLASH.exec(text);
  const menuOpen = slash !== null && menuDismissedFor !== text && chosen === null;
  const menuItems = menuOpen ? filterPrompts(prompts, slash[1]) : [];
  const activeIndex = Math.min(menuIndex, Math.max(0, menuItems.length - 1));
  const canSend = !running && !sending && !disabled && (text.trim() !== '' || attachments.length > 0);

  const send = () => {
    if (!canSend) return;
    setSending(true);
    // onSend reports failure as `false` and never rejects.
    void onSend({ text, attachments }).then((sent) => {
      setSending(false);
      if (sent) {
        setText('');
        setAttachments([]);
      }
      input.current?.focus();
    });
  };

  const choose = (entry: CatalogPrompt) => {
    setChosen(entry);
    setMenuIndex(0);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Keys that pick a candidate while an IME is composing belong to the IME.
    if (e.nativeEvent.isComposing) return;
    if (menuOpen && menuItems.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setMenuIndex((activeIndex + step + menuItems.length) % menuItems.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        choose(menuItems[activeIndex]);
        return;
      }
    }
    if (menuOpen && e.key === 'Escape') {
      e.preventDefault();
      setMenuDismissedFor(text);
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      send();
    }
  };

  const toggleAttachment = (r: PickedResource) =>
    setAttachments((list) =>
      isPicked(list, r) ? list.filter((p) => !(p.serverId === r.serverId && p.uri === r.uri)) : [...list, r],
    );

  return (
    <div className="composer" data-testid="composer">
      {menuOpen && (
        <PromptMenu items={menuItems} active={activeIndex} onHover={setMenuIndex} onChoose={choose} />
      )}
      {chosen && (
        <PromptInsert
          key={`${chosen.serverId}/${chosen.prompt.name}`}
          entry={chosen}
          canComplete={completers.has(chosen.serverId)}
          onInsert={(inserted) => {
            setChosen(null);
            setText(inserted);
            input.current?.focus();
          }}
          onCancel={() => {
            setChosen(null);
            input.current?.focus();
          }}
        />
      )}
      {picking && (
        <ResourcePicker
          resources={resources}
          picked={attachments}
          onToggle={toggleAttachment}
          onClose={() => setPicking(false)}
        />
      )}
      {attachments.length > 0 && (
        <div className="chips composer-chips">
          {attachments.map((a) => (
            <AttachmentChip
              key={`${a.serverId} ${a.uri}`}
              attachment={a}
              onRemove={() => toggleAttachment(a)}
            />
          ))}
        </div>
      )}
      {extra && <div className="composer-bar">{extra}</div>}
      <div className="composer-box">
        <button
          type="button"
          className="composer-attach"
          title="Attach a resource from a connected server"
          aria-expanded={picking}
          onClick={() => setPicking((p) => !p)}
          data-testid="attach-resource"
        >
          + Attach
        </button>
        <textarea
          ref={input}
          rows={Math.min(8, Math.max(1, text.split('\n').length))}
          placeholder="Message, or / for prompts"
          title="Enter sends, Shift+Enter starts a new line, / at the start picks a prompt"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setMenuIndex(0);
          }}
          onKeyDown={onKeyDown}
          aria-label="Message"
          data-testid="chat-input"
        />
        {running ? (
          <button
            type="button"
            className="danger"
            onClick={onStop}
            disabled={stopping}
            data-testid="chat-stop"
          >
            {stopping ? (
              'Stopping…'
            ) : (
              <>
                <Icon name="stop" size={14} /> Stop
              </>
            )}
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            onClick={send}
            disabled={!canSend}
            data-testid="chat-send"
          >
            {sending ? 'Sending…' : 'Send'}
          </button>
        )}
      </div>
    </div>
  );
}
