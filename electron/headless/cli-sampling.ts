import type { PendingResponse, SamplingRequestView } from '../../shared/domain/pending.js';
import type { HostServices } from '../host/compose.js';
import type { SamplingAnswer } from './cli-args.js';

type Answer = Extract<PendingResponse, { kind: 'sampling' }>;

/**
 * Answer sampling reviews on the command line, where nobody can read them. Without a choice
 * every request is denied (the server gets "User rejected sampling request"): running a
 * model on someone's key because a server asked is not a default. `approve` passes both
 * stages unchanged, on `model` when given (the CLI's --model), else the suggested one.
 * Every decision is noted on stderr. Returns the unsubscribe function.
 */
export function answerSamplingHeadless(
  services: Pick<HostServices, 'events' | 'broker'>,
  choice: SamplingAnswer | undefined,
  model: string | undefined,
  note: (text: string) => void,
): () => void {
  const handled = new Set<string>();
  return services.events.on('pending.changed', (list) => {
    for (const r of list) {
      if (r.kind !== 'sampling' || handled.has(r.id)) continue;
      handled.add(r.id);
      const answer = decide(r, choice, model, note);
      // Answer after the broker finishes announcing this request.
      setImmediate(() => services.broker.respond(r.id, answer));
    }
  });
}

function decide(
  r: SamplingRequestView,
  choice: SamplingAnswer | undefined,
  model: string | undefined,
  note: (text: string) => void,
): Answer {
  const what = `sampling ${r.stage === 'request' ? 'request' : 'reply'} from ${r.serverId}`;
  if (!choice) {
    note(`${what} denied: nobody can review it here; pass --sampling approve|deny to choose`);
    return { kind: 'sampling', action: 'deny' };
  }
  if (choice === 'deny') {
    note(`${what}: denied`);
    return { kind: 'sampling', action: 'deny' };
  }
  if (r.stage === 'reply') {
    note(`${what}: approved (${r.reply?.model ?? r.suggestedModel.model})`);
    return { kind: 'sampling', action: 'approve' };
  }
  const chosen = model ? { provider: r.suggestedModel.provider, model } : r.suggestedModel;
  note(`${what}: approved, running on ${chosen.model}`);
  return { kind: 'sampling', action: 'approve', model: chosen };
}
