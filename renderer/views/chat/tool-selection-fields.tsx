import type { ChatSettings } from '../../../shared/domain/chat.js';
import { DEFAULT_OFFER_BUDGET } from '../../../shared/domain/tool-selection.js';

/**
 * How tools are declared to the model: every enabled tool up to the provider's limit, or a
 * bounded core plus a search tool (with its budget), and whether semantic ranking helps.
 */
export function ToolSelectionFields({
  settings,
  apply,
}: {
  settings: ChatSettings;
  apply: (patch: Partial<ChatSettings>) => Promise<void> | void;
}) {
  const mode = settings.offerMode ?? DEFAULT_OFFER_BUDGET.mode;
  const maxTools = settings.offerMaxTools ?? DEFAULT_OFFER_BUDGET.maxTools;
  const maxTokens = settings.offerMaxCost ?? DEFAULT_OFFER_BUDGET.maxTokens;
  const number = (value: string, min: number, max: number, current: number, save: (n: number) => void) => {
    const n = Number(value);
    if (Number.isInteger(n) && n >= min && n <= max && n !== current) save(n);
  };
  return (
    <fieldset className="field" data-testid="tool-selection-settings">
      <legend className="section-title">Tool selection</legend>
      <label htmlFor="offer-mode">Tools per request</label>
      <select
        id="offer-mode"
        value={mode}
        onChange={(e) => void apply({ offerMode: e.target.value === 'all' ? 'all' : 'search' })}
        data-testid="offer-mode"
      >
        <option value="search">Search: a bounded set, the model searches for more</option>
        <option value="all">All tools (up to the model’s limit)</option>
      </select>
      {mode === 'search' && (
        <div className="inline-row">
          <label>
            at most{' '}
            <input
              type="number"
              min={1}
              max={128}
              defaultValue={maxTools}
              key={`t${maxTools}`}
              onBlur={(e) =>
                number(e.target.value, 1, 128, maxTools, (n) => void apply({ offerMaxTools: n }))
              }
              data-testid="offer-max-tools"
            />{' '}
            tools
          </label>
          <label>
            about{' '}
            <input
              type="number"
              min={500}
              max={500000}
              step={500}
              defaultValue={maxTokens}
              key={`k${maxTokens}`}
              onBlur={(e) =>
                number(e.target.value, 500, 500_000, maxTokens, (n) => void apply({ offerMaxCost: n }))
              }
              data-testid="offer-max-tokens"
            />{' '}
            tokens
          </label>
        </div>
      )}
      <label className="switch-row">
        <input
          type="checkbox"
          checked={settings.semanticRanking === true}
          onChange={(e) => void apply({ semanticRanking: e.target.checked })}
          data-testid="semantic-ranking"
        />
        Rank with the provider’s embeddings too
      </label>
      {settings.semanticRanking && (
        <input
          placeholder="Embedding model (default: the provider’s)"
          defaultValue={settings.embeddingModel ?? ''}
          key={settings.embeddingModel ?? ''}
          onBlur={(e) => {
            if (e.target.value.trim() !== (settings.embeddingModel ?? ''))
              void apply({ embeddingModel: e.target.value.trim() });
          }}
          aria-label="Embedding model"
          data-testid="embedding-model"
        />
      )}
      <div className="field-help">
        Search mode declares tools you pinned, tools used in the chat and the best matches, within the budget;
        the model finds the rest with a search tool. Ranking works offline; embeddings are cached per tool.
      </div>
    </fieldset>
  );
}
