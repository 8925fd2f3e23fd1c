import { ShieldAlert } from 'lucide-react';
import type { ToolWarning, ToolWarningKind, WarningPassage } from '../../../shared/domain/tool-trust.js';
import { fieldLabel, passageParts, visiblePieces } from './passage-text.js';

/** Plain words for each kind of warning. */
export const WARNING_LABELS: Record<ToolWarningKind, string> = {
  'hidden-unicode': 'Hidden characters',
  'model-instructions': 'Instructions to the model',
  'secret-access': 'Asks for secrets',
  exfiltration: 'May send data away',
  'long-description': 'Very long description',
  'mentions-other-tool': 'Mentions another tool',
  shadowing: 'Name clash',
};

function countText(n: number): string {
  return `${n} ${n === 1 ? 'warning' : 'warnings'}`;
}

/**
 * A small, non-interactive badge for rows that are themselves buttons (the Tools list): the
 * count, and the reasons in its title. The panel below lists them in full.
 */
export function WarningsBadge({ warnings }: { warnings: readonly ToolWarning[] }) {
  if (warnings.length === 0) return null;
  const kinds = [...new Set(warnings.map((w) => WARNING_LABELS[w.kind]))];
  return (
    <span className="badge warn" title={kinds.join(', ')} data-testid="tool-warnings-badge">
      <ShieldAlert size={12} aria-hidden="true" className="icon" />
      {countText(warnings.length)}
    </span>
  );
}

/**
 * The warnings in full, as a disclosure whose summary is the badge: each reason, and the
 * passages it matched highlighted in context. Warnings never block anything; they say why a
 * person may want to switch the tool off (or deny the call).
 */
export function WarningsPanel({
  warnings,
  intro,
  open = true,
  testId = 'tool-warnings',
}: {
  warnings: readonly ToolWarning[];
  /** One sentence above the list saying what the warnings are about. */
  intro: string;
  open?: boolean;
  testId?: string;
}) {
  if (warnings.length === 0) return null;
  const kinds = [...new Set(warnings.map((w) => WARNING_LABELS[w.kind]))];
  return (
    <details className="tool-warnings" open={open} data-testid={testId}>
      <summary>
        <span className="badge warn">
          <ShieldAlert size={12} aria-hidden="true" className="icon" />
          {countText(warnings.length)}
        </span>{' '}
        <span className="tool-warnings-kinds">{kinds.join(' · ')}</span>
      </summary>
      <p className="small-print muted">{intro}</p>
      <ul className="tool-warnings-list">
        {warnings.map((w, i) => (
          <li key={`${w.kind}-${i}`} data-testid="tool-warning" data-kind={w.kind}>
            <strong>{WARNING_LABELS[w.kind]}</strong>
            <p className="tool-warning-reason">{w.reason}</p>
            {w.passages.map((p, j) => (
              <Passage key={j} passage={p} />
            ))}
          </li>
        ))}
      </ul>
    </details>
  );
}

function Passage({ passage }: { passage: WarningPassage }) {
  const { before, match, after } = passageParts(passage);
  return (
    <p className="warning-passage" data-testid="warning-passage">
      <span className="warning-field">{fieldLabel(passage.field)}</span>
      <span className="warning-text">
        <Visible text={before} />
        <mark data-testid="warning-mark">
          <Visible text={match} />
        </mark>
        <Visible text={after} />
      </span>
    </p>
  );
}

function Visible({ text }: { text: string }) {
  return (
    <>
      {visiblePieces(text).map((piece, i) =>
        'hidden' in piece ? (
          <span key={i} className="hidden-char">
            ⟨{piece.hidden}⟩
          </span>
        ) : (
          <span key={i}>{piece.text}</span>
        ),
      )}
    </>
  );
}
