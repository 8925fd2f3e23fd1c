import type { ToolTrustAnnotator } from '../catalog/catalog.js';
import { fingerprintTool } from './fingerprint.js';
import { inspectTools } from './inspect-tools.js';

/**
 * A stand-in annotator until the ToolTrust service (tool-trust-service.ts) composes pins and
 * warnings in one place: every tool pinned as it reads now, with its poisoning and shadowing
 * warnings. Replaced at the merge; keep it this small.
 */
export const warningsAnnotator: ToolTrustAnnotator = (tools) => {
  const warnings = inspectTools(tools);
  for (const t of tools)
    t.trust = { fingerprint: fingerprintTool(t.tool), pin: 'pinned', warnings: warnings.get(t) ?? [] };
};
