import { plural } from '../../lib/format.js';
import { useRef, useState, type FormEvent } from 'react';
import type { ChatSettings, ProviderId, SecretStatus } from '../../../shared/domain/chat.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { ApiKeyField } from './api-key-field.js';
import type { SettingsHandle } from '../../hooks/use-chat-settings.js';
import { useEscapeWithin } from '../../hooks/use-escape-within.js';
import { ToolSelectionFields } from './tool-selection-fields.js';
import { useModels, useToolOffer } from '../../hooks/use-models.js';
import { Icon } from '../../components/icons.js';
import type { ConversationModelSettings } from '../../../shared/domain/chat.js';
import { ConversationModelFields } from './conversation-model-fields.js';

const PROVIDERS: { id: ProviderId; label: string }[] = [
  { id: 'gemini', label: 'Google Gemini' },
  { id: 'openai', label: 'OpenAI-compatible (Ollama, LM Studio, …)' },
];

/** Provider, model, endpoint and API key: the chat's settings, in a panel off the chat header. */
export function SettingsPanel({
  handle,
  secrets,
  onSecrets,
  catalogKey,
  onClose,
  conversation,
}: {
  handle: SettingsHandle;
  secrets: SecretStatus | null;
  onSecrets: (s: SecretStatus) => void;
  catalogKey: string;
  onClose: () => void;
  /** The open conversation, whose own system prompt and temperature the panel also sets. */
  conversation?: { id: string; modelSettings?: ConversationModelSettings };
}) {
  const { settings } = handle;
  const panel = useRef<HTMLElement>(null);
  useEscapeWithin(panel, onClose);
  const [error, setError] = useState<HostError | null>(null);
  const apply = (patch: Parameters<SettingsHandle['update']>[0]) => handle.update(patch).then(setError);

  return (
    <aside
      className="settings-panel panel"
      role="dialog"
      aria-label="Chat settings"
      data-testid="settings-panel"
      ref={panel}
    >
      <div className="detail-head">
        <h2>Chat settings</h2>
        <button
          type="button"
          className="small settings-close"
          onClick={onClose}
          aria-label="Close settings"
          data-testid="settings-close"
          data-esc-close
        >
          <Icon name="close" />
        </button>
      </div>
      {handle.error && <ErrorBox error={handle.error} />}
      {!settings ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <div className="field">
            <label htmlFor="chat-provider">Provider</label>
            <select
              id="chat-provider"
              value={settings.provider}
              onChange={(e) => void apply({ provider: e.target.value === 'openai' ? 'openai' : 'gemini' })}
              data-testid="provider-select"
            >
              {PROVIDERS.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
          {settings.provider === 'openai' && (
            <BaseUrlField
              key={settings.openaiBaseUrl}
              value={settings.openaiBaseUrl}
              onSave={(u) => apply({ openaiBaseUrl: u })}
            />
          )}
          <ApiKeyField
            key={settings.provider}
            name={settings.provider === 'openai' ? 'openaiApiKey' : 'geminiApiKey'}
            label={settings.provider === 'openai' ? 'API key (optional for local servers)' : 'Gemini API key'}
            status={secrets}
            onStatus={onSecrets}
          />
          <ModelPicker
            settings={settings}
            keySet={secrets?.[settings.provider === 'openai' ? 'openaiApiKey' : 'geminiApiKey'] === true}
            onPick={apply}
          />
          <div className="field">
            <label htmlFor="chat-max-turns">Max model turns per message</label>
            <input
              id="chat-max-turns"
              type="number"
              min={1}
              max={100}
              defaultValue={settings.maxTurns}
              key={settings.maxTurns}
              onBlur={(e) => {
                const n = Number(e.target.value);
                if (Number.isInteger(n) && n >= 1 && n <= 100 && n !== settings.maxTurns)
                  void apply({ maxTurns: n });
              }}
              data-testid="max-turns"
            />
            <div className="field-help">Each tool round-trip is one turn; a run stops after this many.</div>
          </div>
          <ToolSelectionFields settings={settings} apply={apply} />
          {conversation && (
            <ConversationModelFields
              key={conversation.id}
              conversationId={conversation.id}
              initial={conversation.modelSettings}
              defaults={settings}
            />
          )}
          <ToolOfferLine
            refreshKey={`${catalogKey} ${settings.disabledServers.join(',')} ${settings.disabledTools.length}`}
          />
        </>
      )}
      {error && <ErrorBox error={error} testId="settings-error" />}
    </aside>
  );
}

function ModelPicker({
  settings,
  keySet,
  onPick,
}: {
  settings: ChatSettings;
  keySet: boolean;
  onPick: (p: { geminiModel?: string; openaiModel?: string }) => void;
}) {
  const provider = settings.provider;
  const current = provider === 'openai' ? settings.openaiModel : settings.geminiModel;
  const { models, error, loading } = useModels(provider, `${keySet} ${settings.openaiBaseUrl}`);
  const [custom, setCustom] = useState('');
  // The stored model stays selectable even when the provider's list does not name it.
  const options = models.includes(current) ? models : [current, ...models];
  const pick = (model: string) =>
    onPick(provider === 'openai' ? { openaiModel: model } : { geminiModel: model });
  return (
    <div className="field">
      <label htmlFor="chat-model">Model</label>
      <select
        id="chat-model"
        value={current}
        onChange={(e) => pick(e.target.value)}
        data-testid="model-select"
      >
        {options.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
      <form
        className="inline-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (custom.trim()) pick(custom.trim());
          setCustom('');
        }}
      >
        <input
          placeholder="Another model name"
          value={custom}
          onChange={(e) => setCustom(e.target.value)}
          data-testid="model-custom"
        />
        <button type="submit" className="small" disabled={!custom.trim()}>
          Use
        </button>
      </form>
      <div className="field-help">
        {loading
          ? 'Asking the provider for its models…'
          : error
            ? `Could not list models: ${error.message}`
            : `${plural(models.length, 'model')} available.`}
      </div>
    </div>
  );
}

function BaseUrlField({ value, onSave }: { value: string; onSave: (url: string) => Promise<void> }) {
  const [draft, setDraft] = useState(value);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (draft.trim() && draft.trim() !== value) void onSave(draft.trim());
  };
  return (
    <form className="field" onSubmit={onSubmit}>
      <label htmlFor="chat-base-url">Base URL</label>
      <div className="inline-row">
        <input
          id="chat-base-url"
          type="url"
          value={draft}
          placeholder="http://127.0.0.1:11434/v1"
          onChange={(e) => setDraft(e.target.value)}
          data-testid="openai-base-url"
        />
        <button
          type="submit"
          disabled={draft.trim() === value || !draft.trim()}
          data-testid="openai-base-url-save"
        >
          Save
        </button>
      </div>
      <div className="field-help">The OpenAI-compatible endpoint, e.g. Ollama’s or LM Studio’s /v1.</div>
    </form>
  );
}

function ToolOfferLine({ refreshKey }: { refreshKey: string }) {
  const offer = useToolOffer(refreshKey);
  if (!offer) return null;
  return (
    <div className="field" data-testid="tool-offer">
      <span className="section-title">Tools offered to the model</span>
      <span>
        {offer.offered} of at most {offer.limit}
        {offer.budget?.mode === 'search' && offer.offered > 0
          ? ' (search mode: the model can find more)'
          : ''}
      </span>
      {offer.warnings.map((w) => (
        <div key={w} className="notice">
          {w}
        </div>
      ))}
    </div>
  );
}
