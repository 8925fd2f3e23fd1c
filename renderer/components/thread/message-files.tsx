import { FileText, Image as ImageIcon } from 'lucide-react';
import type { ChatFile } from '../../../shared/domain/chat.js';
import { chatFileKind, formatBytes } from '../../../shared/domain/chat-files.js';

/** The files a sent message carried, as chips under its text. */
export function MessageFileChips({ files }: { files: readonly ChatFile[] }) {
  return (
    <div className="chips">
      {files.map((f) => (
        <span key={f.id} className="chip" title={`${f.name} (${f.mimeType})`} data-testid="message-file">
          {chatFileKind(f.mimeType) === 'image' ? (
            <ImageIcon size={14} aria-hidden="true" />
          ) : (
            <FileText size={14} aria-hidden="true" />
          )}
          <span className="chip-label">{f.name}</span>
          <span className="chip-note-plain">{formatBytes(f.size)}</span>
        </span>
      ))}
    </div>
  );
}
