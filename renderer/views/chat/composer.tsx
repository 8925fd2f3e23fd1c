import { Paperclip } from 'lucide-react';
import {
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import type { CatalogPrompt } from '../../../shared/domain/catalog.js';
import { CHAT_FILE_ACCEPT, messageFilesProblem } from '../../../shared/domain/chat-files.js';
import { useCatalog } from '../../hooks/use-catalog.js';
import { useServersWith } from '../../hooks/use-server-capabilities.js';
import { useServers } from '../../hooks/use-servers.js';
import { filterPrompts, PromptMenu } from './prompt-menu.js';
import { PromptInsert } from './prompt-insert.js';
import { isPicked, ResourcePicker, type PickedResource } from './resource-picker.js';
import { useChatHandoff } from './use-chat-handoff.js';
import { AttachmentChip } from './attachment-chip.js';
import { Icon } from '../../components/icons.js';
import { updateDraft as updateDraftOf, useDraft, type Draft } from './drafts.js';
import { FileChip } from './file-chip.js';
import { useFileAttach } from './use-file-attach.js';

/** Whether a drag carries files from the desktop (not text or a link). */
const dragsFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');

/** `/` then a name with no space yet: the prompt menu is open for it. */
const SLASH = /^\/(\S*)$/;

/**
 * The message box: Enter sends, Shift+Enter breaks the line; Attach adds resources as
 * context; the paperclip (or a drop, or a paste) adds local files and images; `/` at the start
 * picks a server prompt whose text is inserted for editing. What is typed is the draft of the
 * conversation `draftKey` names, kept while another one is open. `onSend` resolves to the
 * conversation the message went to (what was sent then leaves the draft), or false.
 */
export function Composer({
  draftKey,
  running,
  stopping,
  disabled,
  onSend,
  onStop,
  extra,
}: {
  /** Whose draft this is: the open conversation's id (or NO_CONVERSATION). */
  draftKey: string;
  running: boolean;
  stopping: boolean;
  disabled: boolean;
  onSend: (draft: Draft) => Promise<string | false>;
  onStop: () => void;
  /** Shown in the composer's bar above the box (the tools chip). */
  extra?: ReactNode;
}) {
  const catalog = useCatalog();
  const completers = useServersWith(useServers(), 'completions');
  const [draft, updateDraft] = useDraft(draftKey);
  const { text, attachments, files } = draft;
  const setText = (t: string) => updateDraft((d) => ({ ...d, text: t }));
  const attachFiles = useFileAttach(draftKey);
  const fileInput = useRef<HTMLInputElement | null>(null);
  const [dropping, setDropping] = useState(false);
  const [picking, setPicking] = useState(false);
  const [sending, setSending] = useState(false);
  const [menuIndex, setMenuIndex] = useState(0);
  // Escape closes the menu until the text changes again.
  const [menuDismissedFor, setMenuDismissedFor] = useState<string | null>(null);
  const [chosen, setChosen] = useState<CatalogPrompt | null>(null);
  const input = useRef<HTMLTextAreaElement | null>(null);
  // "Use in chat" / "Attach to chat" from the Prompts and Resources views land here.
  useChatHandoff({ draftKey, input });

  const prompts = catalog.kind === 'ready' ? catalog.catalog.prompts : [];
  const resources = catalog.kind === 'ready' ? catalog.catalog.resources : [];
  const slash = SLASH.exec(text);
  const menuOpen = slash !== null && menuDismissedFor !== text && chosen === null;
  const menuItems = menuOpen ? filterPrompts(prompts, slash[1]) : [];
  const activeIndex = Math.min(menuIndex, Math.max(0, menuItems.length - 1));
  const filesProblem = messageFilesProblem(files.map((f) => f.size));
  // Every file must be kept by the host (or removed) before the message can go.
  const filesReady = files.every((f) => f.state === 'ready') && filesProblem === null;
  const canSend =
    !running &&
    !sending &&
    !disabled &&
    filesReady &&
    (text.trim() !== '' || attachments.length > 0 || files.length > 0);

  const send = () => {
    if (!canSend) return;
    setSending(true);
    const sent = draft;
    const clear = updateDraft;
    // onSend reports failure as `false` and never rejects.
    void onSend(sent).then((sentTo) => {
      setSending(false);
      if (sentTo === false) return void input.current?.focus();
      // Only what was sent leaves the draft (the person may have typed on meanwhile), both
      // where it was typed and where it went: a draft typed while "New chat" was being created
      // has moved to the new conversation by now.
      const unsent = (d: Draft): Draft => ({
        text: d.text === sent.text ? '' : d.text,
        attachments: d.attachments.filter((a) => !sent.attachments.includes(a)),
        files: d.files.filter((f) => !sent.files.includes(f)),
      });
      clear(unsent);
      updateDraftOf(sentTo, unsent);
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
    updateDraft((d) => ({
      ...d,
      attachments: isPicked(d.attachments, r)
        ? d.attachments.filter((p) => !(p.serverId === r.serverId && p.uri === r.uri))
        : [...d.attachments, r],
    }));
  const removeFile = (key: string) =>
    updateDraft((d) => ({ ...d, files: d.files.filter((f) => f.key !== key) }));

  // A drop of files anywhere on the composer attaches them (and is not also shared as a folder).
  const onDragOver = (e: DragEvent) => {
    if (!dragsFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDropping(true);
  };
  const onDrop = (e: DragEvent) => {
    setDropping(false);
    if (!dragsFiles(e) || e.dataTransfer.files.length === 0) return;
    e.preventDefault();
    attachFiles(Array.from(e.dataTransfer.files));
  };
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    if (e.clipboardData.files.length === 0) return;
    e.preventDefault();
    attachFiles(Array.from(e.clipboardData.files));
  };

  return (
    <div
      className={`composer${dropping ? ' composer-dropping' : ''}`}
      data-testid="composer"
      onDragOver={onDragOver}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropping(false);
      }}
      onDrop={onDrop}
    >
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
      {(attachments.length > 0 || files.length > 0) && (
        <div className="chips composer-chips">
          {attachments.map((a) => (
            <AttachmentChip
              key={`${a.serverId} ${a.uri}`}
              attachment={a}
              onRemove={() => toggleAttachment(a)}
            />
          ))}
          {files.map((f) => (
            <FileChip key={f.key} file={f} onRemove={() => removeFile(f.key)} />
          ))}
        </div>
      )}
      {filesProblem && (
        <p className="composer-note error-text" role="alert" data-testid="files-problem">
          {filesProblem}: remove some before sending.
        </p>
      )}
      {dropping && (
        <div className="composer-drop-hint" aria-hidden="true">
          Drop files or images to attach them
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
        <button
          type="button"
          className="composer-attach"
          title="Attach files or images from this computer (or drop or paste them here)"
          aria-label="Attach files or images"
          onClick={() => fileInput.current?.click()}
          data-testid="attach-file"
        >
          <Paperclip size={16} aria-hidden="true" />
        </button>
        <input
          ref={fileInput}
          type="file"
          multiple
          accept={CHAT_FILE_ACCEPT}
          hidden
          onChange={(e) => {
            if (e.target.files) attachFiles(Array.from(e.target.files));
            e.target.value = '';
          }}
          data-testid="attach-file-input"
        />
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
          onPaste={onPaste}
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
