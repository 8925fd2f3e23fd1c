import type { ToolApprovalRequest } from '../../shared/domain/chat.js';
import { flowLinkSource, type FlowHold } from '../../shared/domain/flows.js';
import { printable } from './cli-audit-tools.js';

/** How much of an argument list the held-call report prints. */
const MAX_ARGS = 400;

/**
 * A held call for a person at a terminal (stderr of `mcp-desk ask`): the tool, what became of
 * it, its arguments, and the chain of untrusted content before it, the carried text in »«.
 */
export function describeHeldCall(r: ToolApprovalRequest & { flow: FlowHold }, outcome: string): string {
  const args = JSON.stringify(r.args);
  const lines = [
    `held: ${r.serverId}/${r.tool} follows content others control: ${outcome}`,
    `  arguments: ${printable(args.length > MAX_ARGS ? `${args.slice(0, MAX_ARGS)}…` : args)}`,
  ];
  r.flow.chain.forEach((l, i) => {
    lines.push(`  ${i + 1}. follows ${printable(flowLinkSource(l))} at ${new Date(l.at).toISOString()}`);
    const passage = l.carried
      ? `${l.passage.slice(0, l.carried.start)}»${l.passage.slice(l.carried.start, l.carried.end)}«${l.passage.slice(l.carried.end)}`
      : l.passage;
    lines.push(`     ${l.carried ? 'carries' : 'passage'}: ${printable(passage.replace(/\s+/g, ' '))}`);
    for (const w of l.warnings) lines.push(`     marked: ${printable(w.reason)}`);
  });
  if (r.flow.total > r.flow.chain.length)
    lines.push(`  … and ${r.flow.total - r.flow.chain.length} more pieces of untrusted content`);
  return `${lines.join('\n')}\n`;
}
