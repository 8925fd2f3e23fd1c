import { Icon } from '../../components/icons.js';
import { useLiveResource } from '../../hooks/use-live-resource.js';
import type { PickedResource } from './resource-picker.js';

/**
 * One attached resource in the composer. It stays live while attached, so a change on the
 * server shows on the chip before the message goes out (the message sends the contents as they
 * are then).
 */
export function AttachmentChip({
  attachment,
  onRemove,
}: {
  attachment: PickedResource;
  onRemove: () => void;
}) {
  const { serverId, uri, name } = attachment;
  const live = useLiveResource(serverId, uri, 'chat-composer');
  const changed = live.updatedAt !== undefined;
  return (
    <span
      className={changed ? 'chip chip-changed' : 'chip'}
      title={`${serverId}: ${uri}${changed ? ' (changed on the server since you attached it)' : ''}`}
      data-testid="attachment-chip"
    >
      <Icon name="attachment" size={14} /> {name}
      {changed && (
        <span className="chip-note" data-testid="attachment-changed">
          changed since attached
        </span>
      )}
      <button
        type="button"
        className="chip-remove"
        aria-label={`Remove ${name}`}
        onClick={onRemove}
        data-testid="attachment-remove"
      >
        <Icon name="close" size={14} />
      </button>
    </span>
  );
}
