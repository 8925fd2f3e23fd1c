import type { ToolTrust } from '../../shared/domain/tool-trust.js';
import { Icon } from './icons.js';

/**
 * "changed": the tool reads differently from the version a person approved (or first saw).
 * Shown wherever the tool is (Tools view, chat tool cards, approval cards) until the change
 * is reviewed and accepted.
 */
export function ToolChangeBadge({
  trust,
  testId = 'tool-changed-badge',
}: {
  /** Only its pin status is read (an approval card passes `{ pin: 'changed' }` for a change). */
  trust: Pick<ToolTrust, 'pin'> | undefined;
  testId?: string;
}) {
  if (trust?.pin !== 'changed') return null;
  return (
    <span
      className="badge changed-badge"
      title="This tool's definition changed since it was approved: review the change before it runs again."
      data-testid={testId}
    >
      <Icon name="changed" size={12} />
      changed
    </span>
  );
}
