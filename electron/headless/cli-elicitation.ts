import type { ElicitationRequestView, PendingResponse } from '../../shared/domain/pending.js';
import {
  fieldDefaults,
  parseRequestedSchema,
  validateElicitContent,
} from '../../shared/elicitation/elicitation-schema.js';
import type { HostServices } from '../host/compose.js';
import type { ElicitationAnswer } from './cli-args.js';

type Answer = Extract<PendingResponse, { kind: 'elicitation' }>;

/**
 * Answer elicitation requests on the command line, where nobody can fill a form. Without a
 * choice every request is cancelled (the server learns nobody was there). `accept-defaults`
 * sends a form's defaults only when they satisfy it (a required field without a default is
 * never invented: that request is declined), and never opens a URL headless: a URL request
 * is declined rather than accepted, since accepting would tell the server the person went
 * there. Every decision is noted on stderr. Returns the unsubscribe function.
 */
export function answerElicitationsHeadless(
  services: Pick<HostServices, 'events' | 'broker'>,
  choice: ElicitationAnswer | undefined,
  note: (text: string) => void,
): () => void {
  const handled = new Set<string>();
  return services.events.on('pending.changed', (list) => {
    for (const r of list) {
      if (r.kind !== 'elicitation' || handled.has(r.id)) continue;
      handled.add(r.id);
      const answer = decide(r, choice, note);
      // Answer after the broker finishes announcing this request.
      setImmediate(() => services.broker.respond(r.id, answer));
    }
  });
}

function decide(
  r: ElicitationRequestView,
  choice: ElicitationAnswer | undefined,
  note: (text: string) => void,
): Answer {
  const what = `elicitation from ${r.serverId} (${r.mode})`;
  if (!choice) {
    note(
      `${what} cancelled: nobody can answer here; pass --elicitation accept-defaults|decline|cancel to choose`,
    );
    return { kind: 'elicitation', action: 'cancel' };
  }
  if (choice !== 'accept-defaults') {
    note(`${what}: ${choice}`);
    return { kind: 'elicitation', action: choice };
  }
  if (r.mode === 'url') {
    note(`${what} declined: links are never opened headless (${r.domain ?? 'unknown domain'})`);
    return { kind: 'elicitation', action: 'decline' };
  }
  if (r.warnings.some((w) => w.startsWith('The answer was not accepted'))) {
    note(`${what} cancelled: the defaults were not accepted`);
    return { kind: 'elicitation', action: 'cancel' };
  }
  const parsed = parseRequestedSchema(r.requestedSchema);
  const fields = parsed.ok ? parsed.fields : [];
  const content = fieldDefaults(fields);
  const checked = validateElicitContent(fields, content);
  if (!checked.ok) {
    note(
      `${what} declined: the defaults do not complete the form (${Object.entries(checked.errors)
        .map(([k, v]) => `${k} ${v}`)
        .join('; ')})`,
    );
    return { kind: 'elicitation', action: 'decline' };
  }
  note(`${what} accepted with defaults: ${Object.keys(content).join(', ') || '(no fields)'}`);
  return { kind: 'elicitation', action: 'accept', content };
}
