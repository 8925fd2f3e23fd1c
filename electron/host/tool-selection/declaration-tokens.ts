import type { ModelTool } from '../chat/provider.js';

/** Estimates by identity: an offer's tool objects stay the same until a list changes (ToolOfferCache). */
const cache = new WeakMap<ModelTool, number>();

/**
 * About how many tokens a tool's declaration costs a request: its characters (name,
 * description, input schema as JSON) divided by 4, the usual rule of thumb for English and
 * JSON, and what the benchmark data's README scores with. Providers count a little
 * differently (Gemini converts the schema), so this is a budget, not a bill.
 */
export function declarationTokens(tool: ModelTool): number {
  let n = cache.get(tool);
  if (n === undefined) {
    n = Math.ceil(
      (tool.name.length + tool.description.length + JSON.stringify(tool.inputSchema ?? {}).length) / 4,
    );
    cache.set(tool, n);
  }
  return n;
}
