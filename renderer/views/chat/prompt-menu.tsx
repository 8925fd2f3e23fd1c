import type { CatalogPrompt } from '../../../shared/domain/catalog.js';

/** `/server:prompt` as typed in the composer. */
export function slashName(p: CatalogPrompt): string {
  return `${p.serverId}:${p.prompt.name}`;
}

/** Prompts whose `/server:prompt` name contains what follows the slash. */
export function filterPrompts(prompts: CatalogPrompt[], query: string): CatalogPrompt[] {
  const q = query.toLowerCase();
  return prompts
    .filter((p) => slashName(p).toLowerCase().includes(q) || (p.prompt.title ?? '').toLowerCase().includes(q))
    .slice(0, 50);
}

/** The `/` menu over the composer: every server's prompts, filtered as the person types. */
export function PromptMenu({
  items,
  active,
  onHover,
  onChoose,
}: {
  items: CatalogPrompt[];
  active: number;
  onHover: (index: number) => void;
  onChoose: (p: CatalogPrompt) => void;
}) {
  return (
    <div className="composer-popover prompt-menu" data-testid="prompt-menu">
      <div className="popover-title section-title">Prompts</div>
      {items.length === 0 ? (
        <p className="muted popover-empty">No prompt matches. Connected servers’ prompts are listed here.</p>
      ) : (
        <ul role="listbox" aria-label="Prompts">
          {items.map((p, i) => (
            <li key={slashName(p)} role="option" aria-selected={i === active}>
              <button
                type="button"
                className={`menu-item${i === active ? ' active' : ''}`}
                // mousedown keeps focus in the textarea, so typing can go on after a click.
                onMouseDown={(e) => {
                  e.preventDefault();
                  onChoose(p);
                }}
                onMouseEnter={() => onHover(i)}
                data-testid={`prompt-option-${slashName(p)}`}
              >
                <span className="mono">/{slashName(p)}</span>
                {(p.prompt.title ?? p.prompt.description) && (
                  <span className="menu-item-desc muted">{p.prompt.title ?? p.prompt.description}</span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
