/**
 * The event channel names alone, without the contract's schemas, so the Electron preload
 * can check an event name without bundling zod. contract.ts checks this list matches.
 */
export const EVENT_NAMES = [
  'servers.changed',
  'catalog.changed',
  'server.output',
  'tool.progress',
  'chat.event',
  'chat.listChanged',
  'pending.changed',
  'settings.changed',
  'appSettings.changed',
  'roots.changed',
  'app.showConversation',
  'permissions.changed',
  'resources.updated',
  'tasks.changed',
  'deepLink.opened',
  'bundles.offered',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** True for a string that names an event channel. */
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && (EVENT_NAMES as readonly string[]).includes(name);
}
