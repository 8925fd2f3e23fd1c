import type { ChatSettings, Conversation, ToolOffer } from '../../../shared/domain/chat.js';
import type { OfferOverrides } from '../../../shared/domain/tool-selection.js';
import type { OfferPlanner } from './tool-offer.js';
import { GEMINI_MAX_TOOLS } from './providers/gemini/gemini-provider.js';
import { OPENAI_MAX_TOOLS } from './providers/openai-provider.js';

/** What the next turn of `conversation` (or a new chat) would offer the model, for the UI's meter. */
export async function offerSummary(
  selection: OfferPlanner,
  settings: ChatSettings,
  conversation: Conversation | undefined,
): Promise<ToolOffer> {
  const overrides = conversation?.offerSettings;
  const plan = await selection.planRun({
    settings,
    ...(overrides ? { overrides } : {}),
    cap: settings.provider === 'gemini' ? GEMINI_MAX_TOOLS : OPENAI_MAX_TOOLS,
    messages: conversation?.messages ?? [],
  });
  const report = plan.report;
  return {
    offered: plan.tools.length,
    limit: plan.limit,
    warnings: plan.warnings,
    ...(report
      ? { budget: { mode: report.mode, maxTools: report.maxTools, maxTokens: report.maxTokens } }
      : {}),
    tokensByServer: selection.tokensByServer(settings),
    ...(overrides ? { overrides } : {}),
  };
}

/** A conversation's own tool budget after `change`: `null` fields return to the chat settings. */
export function mergeOfferOverrides(
  current: OfferOverrides | undefined,
  change: { [K in keyof OfferOverrides]?: OfferOverrides[K] | null },
): OfferOverrides | undefined {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(change)) {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  }
  return Object.keys(next).length ? next : undefined;
}
