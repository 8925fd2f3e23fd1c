import { useCallback } from 'react';
import {
  chatFileKind,
  chatFileType,
  formatBytes,
  MAX_CHAT_FILE_BYTES,
} from '../../../shared/domain/chat-files.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { updateDraft, type LocalFile } from './drafts.js';

/** A file's contents as a data: URL. */
function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}

let counter = 0;

/**
 * Attach local files (the picker, a drop, a paste) to the draft of `draftKey`: each is checked
 * here first (type, size), then read and handed to the host, which checks it again and keeps
 * it; the chip shows each step. A file that cannot go stays as a chip that says why.
 */
export function useFileAttach(draftKey: string): (files: Iterable<File>) => void {
  const host = useHost();
  return useCallback(
    (files: Iterable<File>) => {
      for (const file of files) {
        const key = `file-${++counter}`;
        const type = chatFileType(file.name, file.type);
        const base: LocalFile = {
          key,
          name: file.name || 'pasted file',
          mimeType: type?.mimeType ?? (file.type || 'unknown type'),
          size: file.size,
          state: 'uploading',
        };
        const problem = !type
          ? 'only images (PNG, JPEG, WebP), PDF and text files can go to the model'
          : file.size > MAX_CHAT_FILE_BYTES
            ? `${formatBytes(file.size)} is over the ${formatBytes(MAX_CHAT_FILE_BYTES)} a file may be`
            : file.size === 0
              ? 'the file is empty'
              : null;
        const set = (change: Partial<LocalFile>) =>
          updateDraft(draftKey, (d) => ({
            ...d,
            files: d.files.map((f) => (f.key === key ? { ...f, ...change } : f)),
          }));
        updateDraft(draftKey, (d) => ({
          ...d,
          files: [...d.files, problem ? { ...base, state: 'error', error: problem } : base],
        }));
        if (problem || !type) continue;
        void readDataUrl(file)
          .then((url) => {
            if (chatFileKind(type.mimeType) === 'image') set({ preview: url });
            return host.invoke('chat.attachFile', {
              name: base.name,
              mimeType: type.mimeType,
              data: url.slice(url.indexOf(',') + 1),
            });
          })
          .then(
            (kept) => set({ state: 'ready', file: kept }),
            (e: unknown) => set({ state: 'error', error: asHostError(e).message }),
          );
      }
    },
    [host, draftKey],
  );
}
