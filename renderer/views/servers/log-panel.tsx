import type { LogLine } from '../../../shared/domain/server-state.js';
import { useStickToBottom } from '../../hooks/use-stick-to-bottom.js';
import { formatClock } from '../../lib/format.js';

/** A server's stderr and host log lines, newest at the bottom. */
export function LogPanel({ lines }: { lines: LogLine[] }) {
  const { ref, onScroll } = useStickToBottom<HTMLDivElement>(lines);
  return (
    // It scrolls: the keyboard must reach it (axe's scrollable-region-focusable), and a screen
    // reader hears it as the server's log.
    <div
      className="log-panel scroll"
      ref={ref}
      onScroll={onScroll}
      data-testid="server-log"
      role="log"
      aria-label="Server log"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- it scrolls (see above)
      tabIndex={0}
    >
      {lines.length === 0 && <p className="muted">Nothing logged yet.</p>}
      {lines.map((l) => (
        <div key={l.seq} className={`log-line log-${l.stream}`}>
          <span className="log-time">{formatClock(l.at)}</span>
          <span className="log-stream">{l.stream}</span>
          <span className="log-text">{l.text}</span>
        </div>
      ))}
    </div>
  );
}
