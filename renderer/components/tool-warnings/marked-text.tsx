import type { ToolWarning, WarningPassage } from '../../../shared/domain/tool-trust.js';
import { markParts, rangesIn, type Segment } from './mark-segments.js';
import { visiblePieces } from './passage-text.js';

/**
 * Runs of text with the warning marks in them: each mark in the warning colours and named by
 * the kinds that matched it (its title), hidden characters spelt out; a diff's added and removed
 * runs keep their underline and strike-through around the marks.
 */
export function Segments({ segments }: { segments: readonly Segment[] }) {
  return (
    <>
      {segments.map((s, i) => {
        const inner = s.labels ? (
          <mark className="warning-mark" data-testid="warning-mark" title={s.labels.join(', ')}>
            <Visible text={s.text} />
          </mark>
        ) : (
          <Visible text={s.text} />
        );
        if (s.kind === 'added')
          return (
            <ins key={i} className="diff-added">
              {inner}
            </ins>
          );
        if (s.kind === 'removed')
          return (
            <del key={i} className="diff-removed">
              {inner}
            </del>
          );
        return <span key={i}>{inner}</span>;
      })}
    </>
  );
}

/** A field's text (the description) shown once, with every passage the warnings matched in it marked. */
export function MarkedText({
  text,
  warnings,
  field = 'description',
}: {
  text: string;
  warnings: readonly ToolWarning[];
  field?: WarningPassage['field'];
}) {
  return <Segments segments={markParts([{ text, kind: 'same' }], rangesIn(warnings, field))} />;
}

/** Text with the characters that render as nothing shown as visible tokens. */
export function Visible({ text }: { text: string }) {
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
