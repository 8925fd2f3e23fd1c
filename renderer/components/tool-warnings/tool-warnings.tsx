import { ShieldAlert } from 'lucide-react';
import type { ToolWarning, WarningPassage } from '../../../shared/domain/tool-trust.js';
import { elide, fieldsOf, markParts } from './mark-segments.js';
import { Segments } from './marked-text.js';
import { fieldLabel } from './passage-text.js';
import { WARNING_LABELS } from './warning-labels.js';

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
 * The warnings in full, as a disclosure whose summary is the badge: each reason and where it
 * matched, then each matched field's text once with every passage of every warning marked in
 * it (never a copy per match). A field shown marked elsewhere on the page (`shownAbove`, the
 * description) is named, not repeated. Warnings never block anything; they say why a person may
 * want to switch the tool off (or deny the call).
 */
export function WarningsPanel({
  warnings,
  intro,
  open = true,
  testId = 'tool-warnings',
  shownAbove = [],
}: {
  warnings: readonly ToolWarning[];
  /** One sentence above the list saying what the warnings are about. */
  intro: string;
  open?: boolean;
  testId?: string;
  /** Fields whose text is already shown, marked, above the panel. */
  shownAbove?: readonly WarningPassage['field'][];
}) {
  if (warnings.length === 0) return null;
  const kinds = [...new Set(warnings.map((w) => WARNING_LABELS[w.kind]))];
  const fields = fieldsOf(warnings).filter((f) => !shownAbove.includes(f.field));
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
            <WhereMarked passages={w.passages} shownAbove={shownAbove} />
          </li>
        ))}
      </ul>
      {fields.map((f) => (
        <p key={f.field} className="warning-passage" data-testid="warning-passage" data-field={f.field}>
          <span className="warning-field">{fieldLabel(f.field)}</span>
          <span className="warning-text">
            <Segments segments={elide(markParts([{ text: f.text, kind: 'same' }], f.ranges))} />
          </span>
        </p>
      ))}
    </details>
  );
}

/** Where one warning's passages are marked: the fields, named once each. */
function WhereMarked({
  passages,
  shownAbove,
}: {
  passages: readonly WarningPassage[];
  shownAbove: readonly WarningPassage['field'][];
}) {
  const where = [...new Set(passages.map((p) => p.field))];
  if (where.length === 0) return null;
  const names = where.map((f) => (shownAbove.includes(f) ? `${fieldLabel(f)} (above)` : fieldLabel(f)));
  return <p className="small-print muted tool-warning-where">Marked in: {names.join(', ')}</p>;
}
