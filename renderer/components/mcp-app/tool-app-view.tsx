import { createContext, lazy, Suspense, useContext } from 'react';
import { toolUiOf } from '../../../shared/domain/mcp-apps.js';
import { useCatalog } from '../../hooks/use-catalog.js';
import type { McpAppFrameProps } from './mcp-app-frame.js';

/** The conversation the views below belong to (their `ui/message` goes there); none outside chat. */
export const AppViewConversation = createContext<string | undefined>(undefined);

// The SDK's bridge is its own chunk: only a tool with a view pays for it.
const McpAppFrame = lazy(() => import('./mcp-app-frame.js').then((m) => ({ default: m.McpAppFrame })));

/**
 * The interactive view of a tool call, when the tool has one (`_meta.ui.resourceUri` in the
 * catalog); nothing otherwise. Shown from the call's stored arguments and result, so reopening
 * a conversation shows it again without calling the tool.
 */
export function ToolAppView(props: Omit<McpAppFrameProps, 'conversationId'>) {
  const catalog = useCatalog();
  const conversationId = useContext(AppViewConversation);
  if (catalog.kind !== 'ready') return null;
  const entry = catalog.catalog.tools.find(
    (t) => t.serverId === props.serverId && t.tool.name === props.tool,
  );
  if (!entry || !toolUiOf(entry.tool).resourceUri) return null;
  return (
    <Suspense fallback={<p className="muted small-print">Opening the interactive view…</p>}>
      <McpAppFrame {...props} {...(conversationId ? { conversationId } : {})} />
    </Suspense>
  );
}
