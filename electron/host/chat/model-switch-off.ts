import type { HostEvents } from '../host-events.js';
import type { SettingsStore } from '../stores/settings-store.js';
import type { ModelSwitchOff } from '../policies/tool-policy.js';

/**
 * "Switch off for the model" from an approval card: the tool joins the chat settings'
 * `disabledTools` (the Tools view's chat switch turns it back on), and the UI hears of it as it
 * does of any settings change.
 */
export function modelSwitchOff(settings: SettingsStore, events: HostEvents): ModelSwitchOff {
  return async (serverId, tool) => {
    const key = `${serverId}/${tool}`;
    const { disabledTools } = settings.get();
    if (disabledTools.includes(key)) return;
    events.emit('settings.changed', await settings.update({ disabledTools: [...disabledTools, key] }));
  };
}
