import { Settings } from 'lucide-react';
import type { ReactNode } from 'react';
import { useHostInfo } from '../hooks/use-host-info.js';

/** The top-level views. */
export type ViewName =
  | 'chat'
  | 'requests'
  | 'servers'
  | 'tools'
  | 'resources'
  | 'prompts'
  | 'roots'
  | 'audit'
  | 'permissions'
  | 'settings';

/** The views in navigation order (the command palette lists them too). */
export const NAV_ITEMS: { id: ViewName; label: string; icon: ReactNode }[] = [
  { id: 'chat', label: 'Chat', icon: '✦' },
  { id: 'requests', label: 'Requests', icon: '⚑' },
  { id: 'servers', label: 'Servers', icon: '▤' },
  { id: 'tools', label: 'Tools', icon: '⚒' },
  { id: 'resources', label: 'Resources', icon: '◫' },
  { id: 'prompts', label: 'Prompts', icon: '❝' },
  { id: 'roots', label: 'Folders', icon: '⌂' },
  { id: 'audit', label: 'Activity', icon: '☰' },
  { id: 'permissions', label: 'Permissions', icon: '◎' },
  { id: 'settings', label: 'Settings', icon: <Settings size={16} /> },
];

/**
 * The left navigation, with the host's version and mode at the foot. `badges` counts what
 * waits on the person in a view (approvals for Chat), so it is seen from any other view.
 */
export function Nav({
  view,
  onSelect,
  onPreload,
  badges = {},
}: {
  view: ViewName;
  onSelect: (v: ViewName) => void;
  /** Called when a person points at or focuses an item, so its view can start loading. */
  onPreload?: (v: ViewName) => void;
  badges?: Partial<Record<ViewName, number>>;
}) {
  const info = useHostInfo();
  return (
    <nav className="nav" aria-label="Main">
      <div className="brand">
        <span className="brand-mark">◆</span> MCP Desk
      </div>
      <ul>
        {NAV_ITEMS.map((item) => (
          <li key={item.id}>
            <button
              type="button"
              className={view === item.id ? 'nav-item active' : 'nav-item'}
              aria-current={view === item.id ? 'page' : undefined}
              onClick={() => onSelect(item.id)}
              onPointerEnter={() => onPreload?.(item.id)}
              onFocus={() => onPreload?.(item.id)}
              data-testid={`nav-${item.id}`}
            >
              <span className="nav-icon" aria-hidden="true">
                {item.icon}
              </span>
              {item.label}
              {(badges[item.id] ?? 0) > 0 && (
                <span
                  className="nav-badge"
                  title={`${badges[item.id]} waiting for you`}
                  data-testid={`nav-${item.id}-badge`}
                >
                  {badges[item.id]}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      {info && (
        <div className="nav-foot muted" title={info.configPath} data-testid="host-info">
          v{info.version} · {info.mode}
        </div>
      )}
    </nav>
  );
}
