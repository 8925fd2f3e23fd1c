import type { ResolvedInstall } from '../../../shared/domain/registry.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import { parseEntry } from '../config/config-document.js';
import type { FillContext } from './install-values.js';
import type { OptionPlan } from './install-options.js';

/** A resolved install with the secret values kept host-side (never sent to the renderer). */
export interface ResolvedPlan {
  view: ResolvedInstall;
  /** The entry, parsed by our config schema; absent when something is missing or wrong. */
  config?: ServerConfig;
  secrets: { name: string; value: string }[];
}

/**
 * Fill an option with a person's values and check the entry it makes against our own config
 * schema (the same parseEntry every saved entry goes through).
 */
export function resolvePlan(
  plan: OptionPlan,
  values: Readonly<Record<string, string>>,
  serverName: string,
): ResolvedPlan {
  const ctx: FillContext = { values, serverName, missing: [], problems: [], secrets: [] };
  if (!plan.build) {
    const reason = plan.view.bundle ? [] : [plan.view.reason ?? 'this option cannot be installed'];
    return { view: { missing: [], problems: reason, secrets: [] }, secrets: [] };
  }
  const entry = plan.build(ctx);
  const secrets = ctx.secrets;
  const view: ResolvedInstall = {
    missing: [...new Set(ctx.missing)],
    problems: [...new Set(ctx.problems)],
    secrets: secrets.map((s) => s.name),
  };
  if (view.missing.length || view.problems.length) return { view, secrets };
  const parsed = parseEntry(serverName, entry);
  if (!parsed.ok) return { view: { ...view, problems: [parsed.error] }, secrets };
  return { view: { ...view, entry: parsed.config }, config: parsed.config, secrets };
}
