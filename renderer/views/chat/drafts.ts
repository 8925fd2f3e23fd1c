import { useCallback } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { ChatFile } from '../../../shared/domain/chat.js';
import type { PickedResource } from './resource-picker.js';

/** A local file on its way into a message: read and checked, then kept by the host. */
export interface LocalFile {
  /** Ours, for React and removal (the same file may be attached twice). */
  key: string;
  name: string;
  mimeType: string;
  size: number;
  /** A data: URL for an image's thumbnail. */
  preview?: string;
  state: 'uploading' | 'ready' | 'error';
  /** What the host kept (when ready). */
  file?: ChatFile;
  /** Why it cannot go (when error). */
  error?: string;
}

/** What a person is writing in one conversation: its text, the resources and the files attached. */
export interface Draft {
  text: string;
  attachments: PickedResource[];
  files: LocalFile[];
}

/** The draft of a conversation nobody typed in yet. */
export const EMPTY_DRAFT: Draft = Object.freeze({ text: '', attachments: [], files: [] });

/** The draft slot of the composer with no conversation open (the next message starts one). */
export const NO_CONVERSATION = '';

/**
 * The draft slot of a conversation "New chat" is creating: what is typed before the host
 * answers moves to the new conversation once it exists (see moveDraft), instead of landing in
 * the conversation still on screen.
 */
export const BEING_CREATED = '\u0000being-created';

/**
 * One draft per conversation, so a message (or a "Use in chat" hand-off) stays with the
 * conversation it was written in. A module store: the composer stays mounted while another
 * conversation is shown, and hand-offs arrive while Chat is hidden.
 */
export const draftStore = createStore<Record<string, Draft>>(() => ({}));

/** Change the draft of `key` (its current value in, the next out; an empty one is forgotten). */
export function updateDraft(key: string, change: (d: Draft) => Draft): void {
  draftStore.setState((all) => {
    const next = change(all[key] ?? EMPTY_DRAFT);
    const rest = { ...all };
    delete rest[key];
    const empty = !next.text && next.attachments.length === 0 && next.files.length === 0;
    return empty ? rest : { ...rest, [key]: next };
  }, true);
}

/** Hand the draft of `from` to `to` (a conversation just created); `from` is left empty. */
export function moveDraft(from: string, to: string): void {
  const moving = draftStore.getState()[from];
  if (!moving || from === to) return;
  updateDraft(from, () => EMPTY_DRAFT);
  updateDraft(to, (d) => (d.text || d.attachments.length || d.files.length ? d : moving));
}

/** The draft of `key`, live, and a setter bound to it. */
export function useDraft(key: string): [Draft, (change: (d: Draft) => Draft) => void] {
  const draft = useStore(draftStore, (all) => all[key] ?? EMPTY_DRAFT);
  const update = useCallback((change: (d: Draft) => Draft) => updateDraft(key, change), [key]);
  return [draft, update];
}
