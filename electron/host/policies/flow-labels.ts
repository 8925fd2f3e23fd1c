import {
  FLOW_LABELS,
  type FlowLabel,
  type FlowOverride,
  type FlowReason,
  type ToolFlow,
} from '../../../shared/domain/flows.js';
import type { Tool } from '../../../shared/domain/mcp-types.js';
import { descriptionSignals, nameSignals, schemaSignals, type Signal } from './flow-signals.js';

/**
 * A tool's default flow labels, from its annotations, name, description and input schema.
 * Danger wins: a read-only claim does not undo a `command` parameter. A tool nothing speaks
 * for either way (no `readOnlyHint: true`, no sign of acting) stays unknown, which the guard
 * treats as a possible sink. `openWorldHint: false` (the server says the tool stays within its
 * own data) keeps its words from making it a source. A sink whose every sign is a fetch (a
 * `url` parameter, a name like "fetch") is marked `fetchOnly`.
 */
export function defaultFlow(
  tool: Pick<Tool, 'name' | 'description' | 'inputSchema' | 'annotations'>,
): ToolFlow {
  const a = tool.annotations ?? {};
  const labels = new Set<FlowLabel>();
  const reasons: FlowReason[] = [];
  let acts = false;
  const add = (s: Signal) => {
    labels.add(s.label);
    if (s.label === 'sink' && !s.fetch) acts = true;
    if (!reasons.some((r) => r.label === s.label && r.why === s.why)) reasons.push(s);
  };
  if (a.readOnlyHint === false)
    add({
      label: 'sink',
      why:
        a.destructiveHint === false
          ? 'its server says it changes things, though only by adding (readOnlyHint: false)'
          : 'its server says it may change or delete data (readOnlyHint: false)',
    });
  else if (a.readOnlyHint !== true && a.destructiveHint === true)
    add({ label: 'sink', why: 'its server says it may change or delete data (destructiveHint)' });
  if (a.openWorldHint === true) {
    add({ label: 'source', why: 'its server says it reaches outside your machine (openWorldHint)' });
    if (a.readOnlyHint !== true)
      add({ label: 'sink', why: 'it acts on the world outside your machine (openWorldHint, not read-only)' });
  }
  const closed = a.openWorldHint === false;
  let withheld = false;
  for (const s of [
    ...nameSignals(tool.name),
    ...descriptionSignals(tool.description),
    ...schemaSignals(tool.inputSchema),
  ]) {
    if (s.label === 'source' && closed) withheld = true;
    else add(s);
  }
  if (withheld && !labels.has('source'))
    reasons.push({
      label: 'not-source',
      why: 'its server says it stays within its own data (openWorldHint: false)',
    });
  const sink = labels.has('sink');
  if (!sink && a.readOnlyHint === true)
    reasons.push({ label: 'not-sink', why: 'its server says it changes nothing (readOnlyHint)' });
  const unknown = !sink && a.readOnlyHint !== true;
  if (unknown)
    reasons.push({
      label: 'unknown',
      why: 'nothing says whether it changes anything or reaches out: treated as a possible sink',
    });
  return {
    labels: ordered(labels),
    unknown,
    reasons,
    origin: 'default',
    ...(sink && !acts ? { fetchOnly: true as const } : {}),
  };
}

/** The labels a person set for the tool (or its server), replacing the defaults. */
export function overriddenFlow(override: FlowOverride): ToolFlow {
  const scope = override.tool === undefined ? 'for every tool of this server' : 'for this tool';
  const labels = ordered(new Set(override.labels));
  const reasons: FlowReason[] = labels.map((label) => ({ label, why: `you set it ${scope}` }));
  if (!labels.includes('sink'))
    reasons.push({ label: 'not-sink', why: `you said it is not a sink ${scope}` });
  return { labels, unknown: false, reasons, origin: override.tool === undefined ? 'server' : 'tool' };
}

function ordered(labels: ReadonlySet<FlowLabel>): FlowLabel[] {
  return FLOW_LABELS.filter((l) => labels.has(l));
}
