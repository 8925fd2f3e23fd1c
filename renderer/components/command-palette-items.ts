import type { ConversationSummary } from '../../shared/domain/chat.js';
import type { CatalogSnapshot } from '../../shared/domain/catalog.js';
import type { ServerSummary } from '../../shared/domain/server-state.js';
import type { ViewTarget } from '../hooks/use-view-target.js';
import type { ViewName } from './nav.js';

/** One thing the palette can open: a view, or something inside one. */
export interface PaletteItem {
  /** Unique across the palette (cmdk's value). */
  key: string;
  label: string;
  /** Secondary text (a tool's server, a conversation's size). */
  detail?: string;
  view: ViewName;
  target?: ViewTarget;
}

/** The palette's groups, in the order shown. */
export interface PaletteGroups {
  views: PaletteItem[];
  servers: PaletteItem[];
  tools: PaletteItem[];
  prompts: PaletteItem[];
  conversations: PaletteItem[];
}

// Each group shows this many matches at most: the palette is for jumping, not browsing, and a
// catalog of thousands of tools must not become thousands of DOM nodes per keystroke.
const PER_GROUP = 30;

/** What the palette searches, from the store's lists. */
export interface PaletteSources {
  views: { id: ViewName; label: string }[];
  servers: ServerSummary[];
  catalog: CatalogSnapshot | null;
  conversations: ConversationSummary[];
}

/** Every item whose text contains each word of `query` (any case), capped per group. */
export function paletteItems(src: PaletteSources, query: string): PaletteGroups {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const pick = (items: PaletteItem[]) =>
    items
      .filter((i) => {
        const text = `${i.label} ${i.detail ?? ''}`.toLowerCase();
        return words.every((w) => text.includes(w));
      })
      .slice(0, PER_GROUP);
  const tools = src.catalog?.tools ?? [];
  const prompts = src.catalog?.prompts ?? [];
  return {
    views: pick(src.views.map((v) => ({ key: `view:${v.id}`, label: v.label, view: v.id }))),
    servers: pick(
      src.servers.map((s) => ({
        key: `server:${s.id}`,
        label: s.id,
        detail: s.state.kind,
        view: 'servers',
        target: { view: 'servers', serverId: s.id },
      })),
    ),
    tools: pick(
      tools.map((t) => ({
        key: `tool:${t.serverId}/${t.tool.name}`,
        label: t.tool.title ?? t.tool.name,
        detail: t.tool.title ? `${t.tool.name} · ${t.serverId}` : t.serverId,
        view: 'tools',
        target: { view: 'tools', serverId: t.serverId, name: t.tool.name },
      })),
    ),
    prompts: pick(
      prompts.map((p) => ({
        key: `prompt:${p.serverId}/${p.prompt.name}`,
        label: p.prompt.title ?? p.prompt.name,
        detail: p.prompt.title ? `${p.prompt.name} · ${p.serverId}` : p.serverId,
        view: 'prompts',
        target: { view: 'prompts', serverId: p.serverId, name: p.prompt.name },
      })),
    ),
    conversations: pick(
      src.conversations.map((c) => ({
        key: `conversation:${c.id}`,
        label: c.title || 'Untitled conversation',
        detail: `${c.messageCount} message${c.messageCount === 1 ? '' : 's'}`,
        view: 'chat',
        target: { view: 'chat', conversationId: c.id },
      })),
    ),
  };
}
