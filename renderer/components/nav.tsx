import type { LucideIcon } from 'lucide-react';
import { useHostInfo } from '../hooks/use-host-info.js';
import { AppIcons, Icon } from './icons.js';

/** The top-level views. */
export type ViewName =
  | 'chat'
  | 'requests'
  | 'servers'
  | 'registry'
  | 'tools'
  | 'resources'
  | 'prompts'
  | 'roots'
  | 'audit'
  | 'permissions'
  | 'settings';

/** The views in navigation order (the command palette lists them too). */
export const NAV_ITEMS: { id: ViewName; label: string; icon: LucideIcon }[] = [
  { id: 'chat', label: 'Chat', icon: AppIcons.chat },
  { id: 'requests', label: 'Requests', icon: AppIcons.requests },
  { id: 'servers', label: 'Servers', icon: AppIcons.servers },
  { id: 'registry', label: 'Registry', icon: AppIcons.registry },
  { id: 'tools', label: 'Tools', icon: AppIcons.tools },
  { id: 'resources', label: 'Resources', icon: AppIcons.resources },
  { id: 'prompts', label: 'Prompts', icon: AppIcons.prompts },
  { id: 'roots', label: 'Folders', icon: AppIcons.folders },
  { id: 'audit', label: 'Activity', icon: AppIcons.activity },
  { id: 'permissions', label: 'Permissions', icon: AppIcons.permissions },
  { id: 'settings', label: 'Settings', icon: AppIcons.settings },
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
  alerts = {},
}: {
  view: ViewName;
  onSelect: (v: ViewName) => void;
  /** Called when a person points at or focuses an item, so its view can start loading. */
  onPreload?: (v: ViewName) => void;
  badges?: Partial<Record<ViewName, number>>;
  /** Something wrong in a view (servers that failed): a count and what it counts, in warning colours. */
  alerts?: Partial<Record<ViewName, { count: number; label: string }>>;
}) {
  const info = useHostInfo();
  return (
    <nav className="nav" aria-label="Main">
      <div className="brand">
        <Icon name="brand" className="brand-mark" /> <span className="nav-label">MCP Desk</span>
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
              title={item.label}
              data-testid={`nav-${item.id}`}
            >
              <item.icon size={18} className="icon nav-icon" aria-hidden focusable="false" />
              <span className="nav-label">{item.label}</span>
              {(badges[item.id] ?? 0) > 0 && (
                <>
                  {/* The name is the visible text (label, count) plus words only a screen reader needs. */}
                  <span className="visually-hidden">, </span>
                  <span
                    className="nav-badge"
                    title={`${badges[item.id]} waiting for you`}
                    data-testid={`nav-${item.id}-badge`}
                  >
                    {badges[item.id]}
                  </span>
                  <span className="visually-hidden"> waiting</span>
                </>
              )}
              {(alerts[item.id]?.count ?? 0) > 0 && (
                <>
                  <span className="visually-hidden">, </span>
                  <span
                    className="nav-badge nav-alert"
                    title={`${alerts[item.id]?.count} ${alerts[item.id]?.label}`}
                    data-testid={`nav-${item.id}-alert`}
                  >
                    {alerts[item.id]?.count}
                  </span>
                  <span className="visually-hidden"> {alerts[item.id]?.label}</span>
                </>
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
