import { ModelSettingsForm } from '../../components/model-settings-form.js';
import { useChatSettings } from '../../hooks/use-chat-settings.js';

/** The system prompt and temperature every chat starts with; a chat can set its own in its settings panel. */
export function ChatDefaultsSection() {
  const { settings, update } = useChatSettings();
  return (
    <section className="settings-section" aria-labelledby="settings-chat-defaults">
      <h2 id="settings-chat-defaults">Chat defaults</h2>
      <p className="muted settings-intro">
        What every chat tells the model, and how freely it answers. A chat can set its own in its settings
        panel (the model chip in its header).
      </p>
      {settings && (
        // Not keyed by the values: a save must not remount the form (its "Saved." would go with it).
        <ModelSettingsForm
          idPrefix="defaults"
          values={{ systemPrompt: settings.systemPrompt ?? '', temperature: settings.temperature ?? null }}
          promptPlaceholder="e.g. Answer briefly, in British English."
          temperaturePlaceholder="The provider's default"
          saveLabel="Save defaults"
          onSave={(v) => update({ systemPrompt: v.systemPrompt, temperature: v.temperature })}
        />
      )}
    </section>
  );
}
