import { ShieldAlert } from 'lucide-react';
import { flowLinkSource, type FlowHold, type FlowLink } from '../../../shared/domain/flows.js';
import { visiblePieces } from '../tool-warnings/passage-text.js';
import { WarningsPanel } from '../tool-warnings/tool-warnings.js';

/** A time of today as hours and minutes, in the person's locale. */
function clock(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/**
 * Why a call was held: the untrusted content that came before it in the conversation, each
 * piece with where it came from and when, the passage it carried (the call's own argument
 * text marked where it appears there) and any injection patterns found in it.
 */
export function HeldFlow({ hold, tool }: { hold: FlowHold; tool: string }) {
  // Two reasons say enough here; the Tools view lists them all.
  const sinkWhy = hold.flow.reasons.filter((r) => r.label === 'sink' || r.label === 'unknown').slice(0, 2);
  return (
    <div className="held-flow" role="alert" data-testid="held-flow">
      <p className="held-flow-head">
        <ShieldAlert size={16} aria-hidden="true" />
        <strong>Held: this call follows content others control.</strong>
      </p>
      <p className="small-print">
        A model that reads untrusted text can be told by it what to do. {tool}{' '}
        {hold.flow.unknown ? 'may act' : 'acts'} on your machine or the world
        {sinkWhy.length > 0 ? ` (${sinkWhy.map((r) => r.why).join('; ')})` : ''}, so it waits for you even if
        you always allow it.
      </p>
      <ol className="held-flow-chain" data-testid="held-flow-chain">
        {hold.chain.map((link, i) => (
          <ChainLink key={i} link={link} />
        ))}
      </ol>
      {hold.total > hold.chain.length && (
        <p className="small-print muted">
          and {hold.total - hold.chain.length} more pieces of untrusted content in this chat
        </p>
      )}
    </div>
  );
}

/** Text with its invisible characters shown as tokens: the person sees what the model read. */
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

/** The passage cut where a mark starts or ends; each piece knows which marks cover it. */
function pieces(link: FlowLink): { text: string; carried: boolean; injected: boolean }[] {
  const { passage, carried, marks } = link;
  const cuts = new Set([0, passage.length]);
  for (const m of [...(carried ? [carried] : []), ...marks]) {
    cuts.add(Math.max(0, Math.min(passage.length, m.start)));
    cuts.add(Math.max(0, Math.min(passage.length, m.end)));
  }
  const at = [...cuts].sort((a, b) => a - b);
  const out: { text: string; carried: boolean; injected: boolean }[] = [];
  for (let i = 0; i + 1 < at.length; i++) {
    const [from, to] = [at[i], at[i + 1]];
    out.push({
      text: passage.slice(from, to),
      carried: carried !== undefined && from >= carried.start && to <= carried.end,
      injected: marks.some((m) => from >= m.start && to <= m.end),
    });
  }
  return out;
}

function ChainLink({ link }: { link: FlowLink }) {
  return (
    <li data-testid="held-flow-link" data-kind={link.kind}>
      <span data-testid="held-flow-source">
        follows {flowLinkSource(link)} at {clock(link.at)}
      </span>
      <p className="held-flow-passage" data-testid="held-flow-passage">
        {pieces(link).map((piece, i) =>
          piece.carried || piece.injected ? (
            <mark
              key={i}
              className={`${piece.carried ? 'held-carried' : ''} ${piece.injected ? 'held-injected' : ''}`}
              data-testid={piece.carried ? 'held-flow-carried' : 'held-flow-injected'}
              title={
                piece.carried
                  ? "The call's own arguments appear here"
                  : 'Looks like an order injected for the model'
              }
            >
              <Visible text={piece.text} />
            </mark>
          ) : (
            <Visible key={i} text={piece.text} />
          ),
        )}
      </p>
      <WarningsPanel
        warnings={link.warnings}
        intro="Patterns of injected instructions found in this content."
        testId="held-flow-warnings"
        open={false}
      />
    </li>
  );
}
