import type { CatalogSnapshot, CatalogTool } from '../../../shared/domain/catalog.js';
import type { ChatSettings } from '../../../shared/domain/chat.js';
import { buildToolOffer, type ToolOfferPlan } from './tool-offer.js';

/** What an offer was built from, kept to tell whether the next one would come out the same. */
interface OfferInputs {
  tools: readonly CatalogTool[];
  disabledServers: readonly string[];
  disabledTools: readonly string[];
  limit: number;
}

/**
 * The last tool offer, reused while nothing it depends on changed. A server's lists are
 * replaced (never edited) when they reload, so "same tool objects in the same order, with the
 * same enabled flags, under the same switches and limit" is exact: a tools/list_changed, a
 * server connecting or dropping, and a tool or server being switched off each make the next
 * call rebuild. Checking that costs one pass of identity comparisons, far below a rebuild,
 * and keeps the plan's tool objects stable, so the providers' per-tool conversions
 * (gemini-declarations.ts, toOpenAiTool) are reused too.
 */
export class ToolOfferCache {
  private last?: { inputs: OfferInputs; plan: ToolOfferPlan };

  /** buildToolOffer(catalog, settings, limit), or the previous plan when its inputs are unchanged. */
  offer(catalog: CatalogSnapshot, settings: ChatSettings, limit: number): ToolOfferPlan {
    const inputs: OfferInputs = {
      tools: catalog.tools,
      disabledServers: settings.disabledServers,
      disabledTools: settings.disabledTools,
      limit,
    };
    if (this.last && sameInputs(this.last.inputs, inputs)) return this.last.plan;
    const plan = buildToolOffer(catalog, settings, limit);
    // Copies: a caller may reuse and edit its arrays, and the snapshot's entries are its own.
    this.last = {
      inputs: {
        tools: inputs.tools.map((t) => ({ ...t })),
        disabledServers: [...inputs.disabledServers],
        disabledTools: [...inputs.disabledTools],
        limit,
      },
      plan,
    };
    return plan;
  }
}

function sameInputs(a: OfferInputs, b: OfferInputs): boolean {
  if (a.limit !== b.limit || a.tools.length !== b.tools.length) return false;
  if (!sameStrings(a.disabledServers, b.disabledServers) || !sameStrings(a.disabledTools, b.disabledTools))
    return false;
  for (let i = 0; i < a.tools.length; i++) {
    const x = a.tools[i];
    const y = b.tools[i];
    if (x.tool !== y.tool || x.serverId !== y.serverId || x.enabled !== y.enabled) return false;
  }
  return true;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}
