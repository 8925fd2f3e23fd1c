import type { CatalogTool } from '../../shared/domain/catalog.js';
import type { ToolWarning, WarningPassage } from '../../shared/domain/tool-trust.js';
import type { HostServices } from '../host/compose.js';
import { inspectTools } from '../host/tool-trust/inspect-tools.js';
import { describeState } from './cli-output.js';

/** One tool `audit-tools` reports: changed since pinned, or with warnings (poisoning, shadowing). */
export interface AuditedTool {
  server: string;
  name: string;
  /** Its definition changed since it was pinned (or it was removed and offered again). */
  changed: boolean;
  changedAt?: string;
  warnings: ToolWarning[];
}

/** What `audit-tools --json` prints. */
export interface ToolAudit {
  /** Every tool of every connected server that was checked. */
  checked: number;
  /** Servers that did not connect (their tools were not checked), with why. */
  notConnected: { server: string; state: string }[];
  flagged: AuditedTool[];
}

/**
 * `mcp-desk audit-tools [--json]`: connect every configured server (like `tools`), then list
 * the tools that changed since pinned and those whose text looks poisoned or shadows another
 * server's tool. Exit code 1 when any is found, 0 when none: usable in scripts and CI.
 */
export async function runAuditTools(
  services: HostServices,
  opts: { json: boolean; waitMs: number },
  io: { out: (text: string) => void; err: (text: string) => void },
): Promise<number> {
  const { host } = services;
  await host.init();
  const servers = await host.whenSettled(opts.waitMs);
  const notConnected = servers
    .filter((s) => s.state.kind !== 'connected')
    .map((s) => ({ server: s.id, state: describeState(s.state) }));
  for (const s of notConnected) io.err(`${s.server}: ${s.state} (its tools were not checked)`);
  const audit = auditCatalog(host.catalog().tools, notConnected);
  if (opts.json) io.out(JSON.stringify(audit));
  else io.out(describeAudit(audit));
  return audit.flagged.length > 0 ? 1 : 0;
}

/** The audit of a catalog's tools (their `trust` as the host annotated it; computed here where absent). */
export function auditCatalog(
  tools: readonly CatalogTool[],
  notConnected: ToolAudit['notConnected'],
): ToolAudit {
  const missing = tools.some((t) => !t.trust);
  const computed = missing ? inspectTools(tools) : undefined;
  const flagged: AuditedTool[] = [];
  for (const t of tools) {
    const warnings = t.trust?.warnings ?? computed?.get(t) ?? [];
    const changed = t.trust?.pin === 'changed';
    if (!changed && warnings.length === 0) continue;
    flagged.push({
      server: t.serverId,
      name: t.tool.name,
      changed,
      ...(changed && t.trust?.changedAt ? { changedAt: t.trust.changedAt } : {}),
      warnings,
    });
  }
  return { checked: tools.length, notConnected, flagged };
}

/** The audit for a person at a terminal: one block per flagged tool, passages shown with hidden characters spelt out. */
export function describeAudit(audit: ToolAudit): string {
  const lines: string[] = [];
  for (const t of audit.flagged) {
    lines.push(`${t.server}\t${printable(t.name)}`);
    if (t.changed)
      lines.push(
        `  changed: its definition changed since it was pinned${t.changedAt ? ` (${t.changedAt})` : ''}`,
      );
    for (const w of t.warnings) {
      lines.push(`  ${w.kind}: ${printable(w.reason)}`);
      for (const p of w.passages.slice(0, 3)) lines.push(`    ${p.field}: ${excerpt(p)}`);
    }
  }
  const n = audit.flagged.length;
  lines.push(
    n === 0
      ? `No changed, poisoned-looking or shadowing tools among ${audit.checked} checked.`
      : `${n} of ${audit.checked} tools flagged.`,
  );
  return lines.join('\n');
}

/** The matched part of a passage with a little context, the match in »«. */
function excerpt(p: WarningPassage): string {
  const before = p.text.slice(Math.max(0, p.start - 30), p.start);
  const match = p.text.slice(p.start, Math.min(p.end, p.start + 160));
  const after = p.text.slice(p.end, p.end + 30);
  return printable(`${before}»${match}${p.end - p.start > 160 ? '…' : ''}«${after}`.replace(/\s+/g, ' '));
}

// Each of these is shown as an escape, one by one.
const INVISIBLE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/gu;

/** Tag runs as the text they hide, other hidden characters as \u{…}: a terminal shows nothing (or worse, obeys) otherwise. */
export function printable(text: string): string {
  return text
    .replace(
      /[\u{e0020}-\u{e007e}]+/gu,
      (run) =>
        `[hidden: "${[...run].map((c) => String.fromCharCode((c.codePointAt(0) ?? 0) - 0xe0000)).join('')}"]`,
    )
    .replace(INVISIBLE, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}
