import type { ChatSettings, ProviderId } from '../../../shared/domain/chat.js';

/** A provider and one of its models. */
export interface ModelChoice {
  provider: ProviderId;
  model: string;
}

/**
 * Pick the model for a sampling request. Hints are advisory substrings (spec: "clients MAY
 * map hints to equivalent models"), tried in order against the configured model first and
 * then the provider's known model list; the first hint that matches wins. A hint naming
 * another vendor's model (e.g. "claude") matches nothing here and leaves the default, the
 * model chat uses, which the person may still change in the review.
 */
export function chooseModel(
  settings: ChatSettings,
  hints: readonly { name?: string }[] | undefined,
  known: readonly string[],
): ModelChoice {
  const provider = settings.provider;
  const configured = provider === 'openai' ? settings.openaiModel : settings.geminiModel;
  const candidates = [configured, ...known.filter((m) => m !== configured)];
  for (const hint of hints ?? []) {
    const name = hint.name?.trim().toLowerCase();
    if (!name) continue;
    const hit = candidates.find((m) => m.toLowerCase().includes(name));
    if (hit) return { provider, model: hit };
  }
  return { provider, model: configured };
}
