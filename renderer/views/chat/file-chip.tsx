import { FileText, Image as ImageIcon } from 'lucide-react';
import { chatFileKind, formatBytes } from '../../../shared/domain/chat-files.js';
import { Icon } from '../../components/icons.js';
import type { LocalFile } from './drafts.js';

/** A local file in the composer: its thumbnail or icon, name and size, how its upload goes, and Remove. */
export function FileChip({ file, onRemove }: { file: LocalFile; onRemove: () => void }) {
  const image = chatFileKind(file.mimeType) === 'image';
  return (
    <span
      className={`chip file-chip${file.state === 'error' ? ' chip-error' : ''}`}
      title={file.error ? `${file.name}: ${file.error}` : `${file.name} (${file.mimeType})`}
      data-testid="file-chip"
      data-state={file.state}
    >
      {file.preview ? (
        <img className="file-thumb" src={file.preview} alt="" />
      ) : image ? (
        <ImageIcon size={14} aria-hidden="true" />
      ) : (
        <FileText size={14} aria-hidden="true" />
      )}
      <span className="chip-label">{file.name}</span>
      <span className="chip-note-plain">{formatBytes(file.size)}</span>
      {file.state === 'uploading' && <span className="chip-note-plain">· attaching…</span>}
      {file.state === 'error' && (
        <span className="chip-error-text" data-testid="file-chip-error">
          {file.error}
        </span>
      )}
      <button
        type="button"
        className="chip-remove"
        aria-label={`Remove ${file.name}`}
        onClick={onRemove}
        data-testid="file-remove"
      >
        <Icon name="close" size={14} />
      </button>
    </span>
  );
}
