import { useState } from 'react';
import type { ChatSettings, ConversationModelSettings } from '../../../shared/domain/chat.js';
import { ModelSettingsForm } from '../../components/model-settings-form.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';

// What each conversation's settings were last saved as here: the thread's copy is as of its load.
const lastSaved = new Map<string, ConversationModelSettings>();

/**
 * The open conversation's own system prompt and temperature, in the chat settings panel. Empty
 * fields follow the defaults (Settings › Chat defaults), which the placeholders show.
 */
export function ConversationModelFields({
  conversationId,
  initial,
  defaults,
}: {
  conversationId: string;
  /** The conversation's own values as last loaded. */
  initial: ConversationModelSettings | undefined;
  defaults: ChatSettings;
}) {
  const host = useHost();
  // What the host last answered: the thread's copy catches up only when the chat reloads it.
  const [own, setOwn] = useState<ConversationModelSettings>(
    () => lastSaved.get(conversationId) ?? initial ?? {},
  );
  const [version, setVersion] = useState(0);
  const save = (change: { systemPrompt: string | null; temperature: number | null }, reset = false) =>
    host.invoke('chat.setModelSettings', { conversationId, ...change }).then(
      (next) => {
        lastSaved.set(conversationId, next);
        setOwn(next);
        // Only a reset refills the form; after a save it already shows what was saved (and says so).
        if (reset) setVersion((v) => v + 1);
        return null;
      },
      (e: unknown) => asHostError(e),
    );
  const custom = own.systemPrompt !== undefined || own.temperature !== undefined;
  const defaultPrompt = defaults.systemPrompt?.trim();
  return (
    <section className="conversation-model" aria-labelledby="conversation-model-title">
      <h3 id="conversation-model-title" className="section-title">
        This chat
      </h3>
      <p className="field-help" data-testid="conversation-model-state">
        {custom
          ? 'This chat has its own instructions or temperature.'
          : 'This chat follows the defaults from Settings › Chat defaults.'}
      </p>
      <ModelSettingsForm
        key={version}
        idPrefix="conversation"
        values={{ systemPrompt: own.systemPrompt ?? '', temperature: own.temperature ?? null }}
        promptPlaceholder={defaultPrompt ? `Default: ${defaultPrompt}` : 'None by default'}
        temperaturePlaceholder={
          defaults.temperature !== undefined ? `Default: ${defaults.temperature}` : "The provider's default"
        }
        saveLabel="Save for this chat"
        onSave={(v) =>
          save({ systemPrompt: v.systemPrompt.trim() ? v.systemPrompt : null, temperature: v.temperature })
        }
        extraAction={
          custom && (
            <button
              type="button"
              className="small"
              onClick={() => void save({ systemPrompt: null, temperature: null }, true)}
              data-testid="conversation-model-reset"
            >
              Use the defaults
            </button>
          )
        }
      />
    </section>
  );
}
