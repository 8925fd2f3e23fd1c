import { useMemo } from 'react';
import type { ToolChange, ToolDefinition, ToolWarning } from '../../shared/domain/tool-trust.js';
import { diffLines, diffWords, newSide, oldSide, prettyJson, type DiffPart } from '../lib/text-diff.js';
import { Icon } from './icons.js';
import { markParts, rangesIn } from './tool-warnings/mark-segments.js';
import { MarkedText, Segments } from './tool-warnings/marked-text.js';

/**
 * How a tool changed since it was pinned (approved, or only first seen: the words say which),
 * readable: the description before and now with the words that went and came marked, then the
 * input schema (and any other part that changed) as a line diff of pretty JSON. Removed text is
 * struck through and marked "-", added text underlined and marked "+", so the difference never
 * rests on colour alone. The passages the tool's `warnings` matched in the new description are
 * marked in the warning colours there, the one place that description is shown.
 */
export function ToolChangeDiff({
  change,
  warnings = [],
}: {
  change: ToolChange;
  warnings?: readonly ToolWarning[];
}) {
  const { pinned, current } = change;
  const description = useMemo(
    () => diffWords(pinned.description ?? '', current.description ?? ''),
    [pinned.description, current.description],
  );
  const sections = useMemo(() => jsonSections(pinned, current), [pinned, current]);
  const describedSame = (pinned.description ?? '') === (current.description ?? '');
  return (
    <div className="tool-change-diff" data-testid="tool-change-diff">
      <p className="tool-change-summary">
        <Icon name="changed" className="tool-change-icon" />
        {change.readded
          ? `${change.serverId} withdrew "${change.tool}" and offered it again`
          : `${change.serverId} changed "${change.tool}"`}{' '}
        on {new Date(change.changedAt).toLocaleString()}.{' '}
        {change.approvedAt
          ? `You approved the earlier version on ${new Date(change.approvedAt).toLocaleString()}.`
          : `The earlier version was first seen on ${new Date(change.pinnedAt).toLocaleString()}; no approval of it is on record.`}
      </p>
      {pinned.title !== current.title && (
        <p className="small-print">
          Title: <del>{pinned.title ?? '(none)'}</del> → <ins>{current.title ?? '(none)'}</ins>
        </p>
      )}
      <div className="section-title">Description</div>
      {describedSame ? (
        <p className="muted small-print" data-testid="diff-description-same">
          Unchanged: <MarkedText text={current.description ?? '(none)'} warnings={warnings} />
        </p>
      ) : (
        <div className="diff-columns">
          <DescriptionSide
            label={change.approvedAt ? 'Approved' : 'First seen'}
            parts={oldSide(description)}
            testId="diff-description-before"
          />
          <DescriptionSide
            label="Now"
            parts={newSide(description)}
            testId="diff-description-now"
            warnings={warnings}
          />
        </div>
      )}
      {sections.map((s) => (
        <LineDiff key={s.label} label={s.label} parts={s.parts} testId={s.testId} />
      ))}
      {!sections.length && describedSame && pinned.title === current.title && (
        <p className="muted small-print">
          The definition reads the same as before; it counts as changed because the server withdrew it in
          between.
        </p>
      )}
    </div>
  );
}

function DescriptionSide({
  label,
  parts,
  testId,
  warnings = [],
}: {
  label: string;
  parts: DiffPart[];
  testId: string;
  /** The new side's warnings: their description passages are marked in it. */
  warnings?: readonly ToolWarning[];
}) {
  return (
    <figure className="diff-side">
      <figcaption className="small-print muted">{label}</figcaption>
      <p className="diff-text" data-testid={testId}>
        <Segments segments={markParts(parts, rangesIn(warnings, 'description'))} />
      </p>
    </figure>
  );
}

function Mark({ part }: { part: DiffPart }) {
  if (part.kind === 'removed') return <del className="diff-removed">{part.text}</del>;
  if (part.kind === 'added') return <ins className="diff-added">{part.text}</ins>;
  return <>{part.text}</>;
}

const GUTTER: Record<DiffPart['kind'], string> = { same: ' ', removed: '-', added: '+' };
const LINE_LABEL: Record<DiffPart['kind'], string | undefined> = {
  same: undefined,
  removed: 'removed',
  added: 'added',
};

function LineDiff({ label, parts, testId }: { label: string; parts: DiffPart[]; testId: string }) {
  return (
    <>
      <div className="section-title">{label}</div>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- it scrolls: the keyboard must reach it */}
      <pre className="diff-lines" data-testid={testId} tabIndex={0} aria-label={`${label}, changed lines`}>
        {parts.map((p, i) => (
          <span key={i} className={`diff-line diff-line-${p.kind}`} title={LINE_LABEL[p.kind]}>
            <span className="diff-gutter" aria-hidden="true">
              {GUTTER[p.kind]}
            </span>
            {p.kind === 'same' ? p.text : <Mark part={p} />}
            {'\n'}
          </span>
        ))}
      </pre>
    </>
  );
}

/** The JSON parts of a definition that differ, each as a line diff. */
function jsonSections(a: ToolDefinition, b: ToolDefinition) {
  const fields: { key: 'inputSchema' | 'outputSchema' | 'annotations'; label: string }[] = [
    { key: 'inputSchema', label: 'Input schema' },
    { key: 'outputSchema', label: 'Output schema' },
    { key: 'annotations', label: 'Annotations' },
  ];
  return fields.flatMap(({ key, label }) => {
    const before = prettyJson(a[key]);
    const now = prettyJson(b[key]);
    if (before === now) return [];
    return [{ label, parts: diffLines(before, now), testId: `diff-${key}` }];
  });
}
