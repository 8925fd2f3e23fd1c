import { useCatalog } from '../../hooks/use-catalog.js';
import { useToolOffer } from '../../hooks/use-models.js';

/**
 * What this server's tools cost a model request: the tokens of all its enabled tools'
 * declarations (characters / 4), against the chat's per-request budget in search mode.
 */
export function ToolTokenLine({ serverId }: { serverId: string }) {
  const catalog = useCatalog();
  // Asked again whenever the catalog's tools change.
  const offer = useToolOffer(catalog.kind === 'ready' ? String(catalog.catalog.tools.length) : '');
  if (!offer) return null;
  const tokens = offer.tokensByServer?.[serverId] ?? 0;
  const budget = offer.budget;
  return (
    <>
      <dt>Tool definitions</dt>
      <dd data-testid="server-tool-tokens">
        ≈{tokens.toLocaleString()} tokens if all its tools were declared
        {budget?.mode === 'search' && (
          <>
            {' '}
            <meter
              min={0}
              max={budget.maxTokens}
              value={Math.min(tokens, budget.maxTokens)}
              aria-label="Share of the request budget"
            />{' '}
            <span className="muted small-print">
              of a {budget.maxTokens.toLocaleString()}-token budget per request (search mode declares only
              what fits)
            </span>
          </>
        )}
      </dd>
    </>
  );
}
