import type { CatalogTool } from '../../shared/domain/catalog.js';
import {
  heldWhenTainted,
  type FlowLabel,
  type FlowReason,
  type ToolFlow,
} from '../../shared/domain/flows.js';
import type { HostServices } from '../host/compose.js';
import { printable } from './cli-audit-tools.js';
import { describeState } from './cli-output.js';

/** One tool as `audit-flows` reports it. */
export interface FlowAuditRow {
  server: string;
  name: string;
  labels: FlowLabel[];
  /** Nothing says whether it acts: treated as a possible sink. */
  unknown: boolean;
  /** A call of it waits for review in a conversation that took in untrusted content. */
  held: boolean;
  /** Computed, or a person's override for the tool or its server. */
  origin: ToolFlow['origin'];
  /** A sink only in that it fetches: not held when the chat's untrusted content is all its own results. */
  fetchOnly?: true;
  reasons: FlowReason[];
}

/** What `audit-flows --json` prints. */
export interface FlowAudit {
  checked: number;
  /** How many tools a tainted conversation would hold. */
  held: number;
  /** Servers that did not connect (their tools were not labelled), with why. */
  notConnected: { server: string; state: string }[];
  tools: FlowAuditRow[];
}

/**
 * `mcp-desk audit-flows [--json]`: connect every configured server (like `tools`) and print
 * each tool's flow labels and why. Informational: exit 0 whenever the servers could be read.
 */
export async function runAuditFlows(
  services: HostServices,
  opts: { json: boolean; waitMs: number },
  io: { out: (text: string) => void; err: (text: string) => void },
): Promise<number> {
  const { host, flows } = services;
  await host.init();
  const servers = await host.whenSettled(opts.waitMs);
  const notConnected = servers
    .filter((s) => s.state.kind !== 'connected')
    .map((s) => ({ server: s.id, state: describeState(s.state) }));
  for (const s of notConnected) io.err(`${s.server}: ${s.state} (its tools were not labelled)`);
  const audit = auditFlows(host.catalog().tools, (t) => t.flow ?? flows.flowOf(t.serverId, t.tool));
  audit.notConnected = notConnected;
  io.out(opts.json ? JSON.stringify(audit) : describeFlowAudit(audit));
  return 0;
}

/** The flow audit of a catalog's tools. */
export function auditFlows(tools: readonly CatalogTool[], flowOf: (t: CatalogTool) => ToolFlow): FlowAudit {
  const rows = tools.map((t): FlowAuditRow => {
    const flow = flowOf(t);
    return {
      server: t.serverId,
      name: t.tool.name,
      labels: flow.labels,
      unknown: flow.unknown,
      held: heldWhenTainted(flow),
      origin: flow.origin,
      ...(flow.fetchOnly ? { fetchOnly: true as const } : {}),
      reasons: flow.reasons,
    };
  });
  return { checked: rows.length, held: rows.filter((r) => r.held).length, notConnected: [], tools: rows };
}

/** Labels in a word: "source, sink", or "unknown (possible sink)", or "none". */
export function labelWords(row: Pick<FlowAuditRow, 'labels' | 'unknown'>): string {
  const words: string[] = [...row.labels];
  if (row.unknown) words.push('unknown (possible sink)');
  return words.length ? words.join(', ') : 'none';
}

/** The audit for a person at a terminal: one block per tool, its labels and reasons. */
export function describeFlowAudit(audit: FlowAudit): string {
  const lines: string[] = [];
  for (const t of audit.tools) {
    const by = t.origin === 'default' ? '' : ` (set by you for this ${t.origin})`;
    const fetch = t.fetchOnly ? ' (unless fed only by its own results)' : '';
    const held = t.held ? `\theld when tainted${fetch}` : '';
    lines.push(`${t.server}\t${printable(t.name)}\t${labelWords(t)}${by}${held}`);
    for (const r of t.reasons) lines.push(`  ${r.label}: ${printable(r.why)}`);
  }
  lines.push(
    `${audit.held} of ${audit.checked} tools would wait for review in a conversation that took in untrusted content.`,
  );
  return lines.join('\n');
}
