import { useState } from 'react';
import {
  FONT_SIZE_RANGE,
  type AppSettings,
  type Density,
  type ThemeChoice,
} from '../../../shared/domain/app-settings.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import type { AppSettingsHandle } from '../../hooks/use-app-settings.js';
import { applyAppearance } from '../../lib/appearance.js';

type Appearance = Pick<AppSettings, 'theme' | 'fontSize' | 'density'>;

function withoutKeys(p: Partial<Appearance>, keys: string[]): Partial<Appearance> {
  return Object.fromEntries(Object.entries(p).filter(([k]) => !keys.includes(k)));
}

const THEMES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];
const DENSITIES: { value: Density; label: string }[] = [
  { value: 'comfortable', label: 'Comfortable' },
  { value: 'compact', label: 'Compact' },
];
const SIZES = Array.from(
  { length: FONT_SIZE_RANGE.max - FONT_SIZE_RANGE.min + 1 },
  (_, i) => FONT_SIZE_RANGE.min + i,
);

/** Theme, font size and density: saved for every window and applied as soon as they change. */
export function AppearanceSection({
  settings,
  update,
}: {
  settings: AppSettings;
  update: AppSettingsHandle['update'];
}) {
  const [error, setError] = useState<HostError | null>(null);
  // Shown and applied at once; the host's answer (and every other window) follows a moment later.
  const [pending, setPending] = useState<Partial<Appearance>>({});
  const shown: Appearance = { ...settings, ...pending };
  const apply = (patch: Partial<Appearance>) => {
    setPending((p) => ({ ...p, ...patch }));
    applyAppearance({ ...shown, ...patch });
    void update(patch).then((failed) => {
      setError(failed);
      setPending((p) => withoutKeys(p, Object.keys(patch)));
      // Refused: back to what the host keeps.
      if (failed) applyAppearance(settings);
    });
  };
  return (
    <section className="settings-section" aria-labelledby="settings-appearance">
      <h2 id="settings-appearance">Appearance</h2>
      <ChoiceGroup
        legend="Theme"
        name="theme"
        choices={THEMES}
        value={shown.theme}
        onChoose={(theme) => apply({ theme })}
        help="System follows your operating system’s light or dark setting."
      />
      <div className="field settings-narrow">
        <label htmlFor="settings-font-size">Text size</label>
        <select
          id="settings-font-size"
          value={shown.fontSize}
          onChange={(e) => apply({ fontSize: Number(e.target.value) })}
          data-testid="font-size"
        >
          {SIZES.map((s) => (
            <option key={s} value={s}>
              {s} px{s === 14 ? ' (default)' : ''}
            </option>
          ))}
        </select>
      </div>
      <ChoiceGroup
        legend="Density"
        name="density"
        choices={DENSITIES}
        value={shown.density}
        onChoose={(density) => apply({ density })}
        help="Compact fits more rows on a small screen; comfortable leaves more room."
      />
      {error && <ErrorBox error={error} testId="appearance-error" />}
    </section>
  );
}

/** One appearance choice as a group of radio buttons (test ids `<name>-<value>`). */
function ChoiceGroup<T extends string>({
  legend,
  name,
  choices,
  value,
  onChoose,
  help,
}: {
  legend: string;
  name: string;
  choices: { value: T; label: string }[];
  value: T;
  onChoose: (value: T) => void;
  help: string;
}) {
  return (
    <fieldset className="field-group settings-choice">
      <legend>{legend}</legend>
      {choices.map((c) => (
        <label key={c.value} className="checkbox-line">
          <input
            type="radio"
            name={name}
            value={c.value}
            checked={value === c.value}
            onChange={() => onChoose(c.value)}
            data-testid={`${name}-${c.value}`}
          />
          {c.label}
        </label>
      ))}
      <p className="field-help">{help}</p>
    </fieldset>
  );
}
