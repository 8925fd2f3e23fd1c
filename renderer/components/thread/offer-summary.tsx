import type { OfferReason, OfferReport } from '../../../shared/domain/tool-selection.js';

const REASON_LABEL: Record<OfferReason, string> = {
  pinned: 'always offered',
  used: 'used in this chat',
  hit: 'top match for the chat',
  found: 'found by search',
  all: 'all tools mode',
};

/** Tokens as a person reads them: 6.1k, 930. */
export function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

/**
 * What one model request declared, and why: a one-line summary with a meter of the
 * declarations' tokens against the budget, which opens to the tools grouped by reason (search
 * hits with the words the model searched for).
 */
export function OfferSummary({ offer }: { offer: OfferReport }) {
  const budget = offer.mode === 'search' ? offer.maxTokens : Math.max(offer.tokens, offer.maxTokens);
  const groups = new Map<string, OfferReport['tools']>();
  for (const t of offer.tools) {
    const key = t.reason === 'found' ? `found by search for “${t.query ?? ''}”` : REASON_LABEL[t.reason];
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  return (
    <details className="offer-summary" data-testid="offer-summary" data-mode={offer.mode}>
      <summary>
        <span data-testid="offer-count">
          {offer.tools.length} of {offer.enabledCount} tools offered
          {offer.searchTool ? ' + tool search' : ''}
        </span>
        <meter
          className="offer-meter"
          min={0}
          max={budget}
          high={budget * 0.9}
          value={offer.tokens}
          aria-label="Tool-definition tokens in this request"
          data-testid="offer-meter"
        />
        <span className="muted small-print" data-testid="offer-tokens">
          ≈{formatTokens(offer.tokens)} tokens
          {offer.mode === 'search' ? ` of ${formatTokens(offer.maxTokens)}` : ''}
        </span>
      </summary>
      {[...groups].map(([label, tools]) => (
        <div key={label} className="offer-group" data-testid="offer-group">
          <div className="muted small-print">{label}</div>
          <ul className="offer-tools">
            {tools.map((t) => (
              <li key={t.name} data-testid="offer-tool" data-reason={t.reason}>
                <span className="badge subtle">{t.serverId}</span> {t.tool}{' '}
                <span className="muted small-print">{t.tokens}</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </details>
  );
}
