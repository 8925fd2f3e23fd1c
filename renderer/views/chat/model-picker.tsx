import { useId } from 'react';
import type { ChatSettings } from '../../../shared/domain/chat.js';
import type { SettingsHandle } from '../../hooks/use-chat-settings.js';
import { useModels } from '../../hooks/use-models.js';

/**
 * The composer's model picker, beside the tools chip: the models the chat's provider lists
 * (the one in use always among them). Picking one changes the chat settings' model for that
 * provider, as the settings panel's picker does.
 */
export function ModelPicker({
  settings,
  update,
  keySet,
}: {
  settings: ChatSettings;
  update: SettingsHandle['update'];
  /** Whether the provider's API key is stored (the list is asked again when it changes). */
  keySet: boolean;
}) {
  const id = useId();
  const provider = settings.provider;
  const current = provider === 'openai' ? settings.openaiModel : settings.geminiModel;
  const { models, error } = useModels(provider, `${keySet} ${settings.openaiBaseUrl}`);
  const options = models.includes(current) ? models : [current, ...models];
  return (
    <span className="model-picker">
      <label htmlFor={id} className="visually-hidden">
        Model
      </label>
      <select
        id={id}
        value={current}
        title={error ? `Could not list models: ${error.message}` : 'The model that answers in this chat'}
        onChange={(e) =>
          void update(
            provider === 'openai' ? { openaiModel: e.target.value } : { geminiModel: e.target.value },
          )
        }
        data-testid="composer-model"
      >
        {options.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
    </span>
  );
}
