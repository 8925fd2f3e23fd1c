import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { HostError } from '../../shared/domain/server-state.js';
import { ErrorBox } from './error-box.js';

/** What the form saves: a prompt ("" for none) and a temperature (null: the default). */
export interface ModelSettingsValues {
  systemPrompt: string;
  temperature: number | null;
}

/** Why `text` is not a temperature, or null ("" means the default). */
function temperatureProblem(text: string): string | null {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 && n <= 2 ? null : 'A temperature is a number from 0 to 2.';
}

/**
 * A system prompt and a temperature: the chat settings' defaults, or one conversation's own.
 * `onSave` resolves to the error that kept it from saving, or null.
 */
export function ModelSettingsForm({
  idPrefix,
  values,
  promptPlaceholder,
  temperaturePlaceholder,
  saveLabel,
  onSave,
  extraAction,
}: {
  /** Names the fields' test ids: `<idPrefix>-system-prompt`, `-temperature`, `-save`. */
  idPrefix: string;
  values: ModelSettingsValues;
  promptPlaceholder: string;
  temperaturePlaceholder: string;
  saveLabel: string;
  onSave: (values: ModelSettingsValues) => Promise<HostError | null>;
  /** Another button beside Save (a conversation's "Use the defaults"). */
  extraAction?: ReactNode;
}) {
  const id = useId();
  const [prompt, setPrompt] = useState(values.systemPrompt);
  const [temperature, setTemperature] = useState(
    values.temperature === null ? '' : String(values.temperature),
  );
  const [error, setError] = useState<HostError | null>(null);
  const [note, setNote] = useState('');
  const problem = temperatureProblem(temperature);
  const changed =
    prompt !== values.systemPrompt ||
    (temperature.trim() === '' ? null : Number(temperature)) !== values.temperature;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (problem || !changed) return;
    setNote('');
    void onSave({
      systemPrompt: prompt,
      temperature: temperature.trim() === '' ? null : Number(temperature),
    }).then((failed) => {
      setError(failed);
      if (!failed) setNote('Saved.');
    });
  };

  return (
    <form className="model-settings-form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-prompt`}>System prompt</label>
        <textarea
          id={`${id}-prompt`}
          rows={4}
          value={prompt}
          placeholder={promptPlaceholder}
          onChange={(e) => setPrompt(e.target.value)}
          data-testid={`${idPrefix}-system-prompt`}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-temperature`}>Temperature</label>
        <input
          id={`${id}-temperature`}
          type="number"
          min={0}
          max={2}
          step={0.1}
          inputMode="decimal"
          value={temperature}
          placeholder={temperaturePlaceholder}
          onChange={(e) => setTemperature(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-temperature-help`}
          data-testid={`${idPrefix}-temperature`}
        />
        <div className="field-help" id={`${id}-temperature-help`}>
          {problem ?? 'Lower is steadier, higher more varied (0 to 2). Empty uses the default.'}
        </div>
      </div>
      <div className="inline-row">
        <button
          type="submit"
          className="primary small"
          disabled={problem !== null || !changed}
          data-testid={`${idPrefix}-save`}
        >
          {saveLabel}
        </button>
        {extraAction}
        <span className="field-help" role="status" data-testid={`${idPrefix}-note`}>
          {note}
        </span>
      </div>
      {error && <ErrorBox error={error} testId={`${idPrefix}-error`} />}
    </form>
  );
}
