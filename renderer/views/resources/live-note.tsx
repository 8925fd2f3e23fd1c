import { useNow } from '../../hooks/use-now.js';
import type { LiveResource } from '../../hooks/use-live-resource.js';

/** "Live" while the server announces changes, and "Updated just now" after it did (a status region). */
export function LiveNote({ live }: { live: LiveResource }) {
  const now = useNow(live.updatedAt !== undefined, 15_000);
  const ago = live.updatedAt === undefined ? undefined : Math.max(0, now - live.updatedAt);
  let said = '';
  if (ago !== undefined)
    said = ago < 60_000 ? 'Updated just now' : `Updated ${Math.round(ago / 60_000)} min ago`;
  return (
    <div className="live-note">
      {live.live && (
        <span
          className="badge subtle"
          title="The server tells MCP Desk when this resource changes"
          data-testid="resource-live"
        >
          Live
        </span>
      )}
      <span role="status" aria-live="polite" data-testid="resource-updated">
        {said}
      </span>
    </div>
  );
}
