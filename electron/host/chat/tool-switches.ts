import type { ChatSettings, ToolSwitches } from '../../../shared/domain/chat.js';
import { HostFailure } from '../util/errors.js';

/** How many switches one conversation may hold (the contract allows the same). */
export const MAX_SWITCHES = 2000;

/**
 * The chat settings as one conversation sees them: its own switches over the global ones.
 * The lists come out sorted so the tool-offer cache sees equal inputs as equal.
 */
export function effectiveSettings(settings: ChatSettings, switches: ToolSwitches | undefined): ChatSettings {
  if (!switches) return settings;
  return {
    ...settings,
    disabledServers: apply(settings.disabledServers, switches.servers),
    disabledTools: apply(settings.disabledTools, switches.tools),
  };
}

function apply(disabled: readonly string[], on: Record<string, boolean> | undefined): string[] {
  const set = new Set(disabled);
  for (const [key, enabled] of Object.entries(on ?? {})) {
    if (enabled) set.delete(key);
    else set.add(key);
  }
  return [...set].sort();
}

/**
 * Merge a change into a conversation's switches: `null` removes one (back to the global
 * setting), a switch equal to the global setting is dropped, so the global default keeps
 * deciding until the person says otherwise in this chat.
 */
export function mergeSwitches(
  current: ToolSwitches | undefined,
  change: { servers?: Record<string, boolean | null>; tools?: Record<string, boolean | null> },
  settings: ChatSettings,
): ToolSwitches | undefined {
  const servers = mergeMap(current?.servers, change.servers, new Set(settings.disabledServers));
  const tools = mergeMap(current?.tools, change.tools, new Set(settings.disabledTools));
  if (Object.keys(servers).length + Object.keys(tools).length > MAX_SWITCHES)
    throw new HostFailure('invalid_request', `a conversation can hold at most ${MAX_SWITCHES} tool switches`);
  const out: ToolSwitches = {
    ...(Object.keys(servers).length ? { servers } : {}),
    ...(Object.keys(tools).length ? { tools } : {}),
  };
  return out.servers || out.tools ? out : undefined;
}

function mergeMap(
  current: Record<string, boolean> | undefined,
  change: Record<string, boolean | null> | undefined,
  globallyOff: ReadonlySet<string>,
): Record<string, boolean> {
  const next: Record<string, boolean> = { ...current };
  for (const [key, value] of Object.entries(change ?? {})) {
    if (value === null || value === !globallyOff.has(key)) delete next[key];
    else next[key] = value;
  }
  return next;
}
