import { useEffect, useState, type RefObject } from 'react';
import { chatHandoffStore, takeHandoffs, type ChatHandoff } from '../../store/chat-handoff-store.js';
import { updateDraft } from './drafts.js';
import { promptText } from './prompt-text.js';
import { isPicked, type PickedResource } from './resource-picker.js';

/** The composer a hand-off writes to: the draft of the conversation open in it, and its message box. */
export interface HandoffTarget {
  draftKey: string;
  input: RefObject<HTMLTextAreaElement | null>;
}

// The chat view may still be hidden in the render that applies a hand-off; focus() on a hidden
// element does nothing, so it is retried for a few frames until the shell has shown Chat.
const FOCUS_TRIES = 10;

/**
 * Drain what other views handed to the chat (renderer/store/chat-handoff-store.ts) into the
 * draft of the conversation open at that moment, and only that one: a prompt's messages become
 * its text, as the `/` menu's Insert does (appended below what the person already typed, so
 * nothing they wrote is lost), and a resource joins its attachments, as the picker's toggle
 * does. Focus then goes to the message box.
 */
export function useChatHandoff({ draftKey, input }: HandoffTarget): void {
  const [focusWanted, setFocusWanted] = useState(0);

  useEffect(() => {
    const apply = (handoffs: ChatHandoff[]) => {
      if (handoffs.length === 0) return;
      for (const h of handoffs) {
        if (h.kind === 'prompt') {
          const inserted = promptText(h.result);
          updateDraft(draftKey, (d) => ({
            ...d,
            text: d.text.trim() === '' ? inserted : `${d.text.trimEnd()}\n\n${inserted}`,
          }));
        } else {
          const picked: PickedResource = { serverId: h.serverId, uri: h.uri, name: h.name };
          updateDraft(draftKey, (d) =>
            isPicked(d.attachments, picked) ? d : { ...d, attachments: [...d.attachments, picked] },
          );
        }
      }
      setFocusWanted((n) => n + 1);
    };
    // Anything queued before this composer mounted, then each new hand-off as it comes.
    apply(takeHandoffs());
    return chatHandoffStore.subscribe((s) => {
      if (s.queue.length > 0) apply(takeHandoffs());
    });
  }, [draftKey]);

  useEffect(() => {
    if (focusWanted === 0) return;
    let tries = 0;
    let frame = 0;
    const focus = () => {
      const el = input.current;
      if (!el) return;
      el.focus();
      if (document.activeElement !== el && ++tries < FOCUS_TRIES) frame = requestAnimationFrame(focus);
      // Put the caret after the inserted text, where the person goes on typing.
      else if (document.activeElement === el) el.setSelectionRange(el.value.length, el.value.length);
    };
    focus();
    return () => cancelAnimationFrame(frame);
  }, [focusWanted, input]);
}
