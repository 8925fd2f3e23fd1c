import { z } from 'zod';
import type { ToolChange, ToolDefinition } from '../../../shared/domain/tool-trust.js';
import { describeIssues } from '../util/errors.js';

/** What a changed tool reads as now, beside its pin. */
export interface PinChange {
  definition: ToolDefinition;
  fingerprint: string;
  /** When this version was first seen (ISO 8601). */
  changedAt: string;
  /** It was gone from the server's list and came back. */
  readded: boolean;
}

/** One tool's pin: the definition a person approved (or the host first saw), and any change since. */
export interface ToolPin {
  definition: ToolDefinition;
  fingerprint: string;
  pinnedAt: string;
  /** When a person approved this version (allowed a call of it, or accepted it); absent: only first seen. */
  approvedAt?: string;
  /** Present while the tool reads differently from its pin (or came back after being removed). */
  change?: PinChange;
  /** When it went missing from a successful tools/list; absent while the server offers it. */
  removedAt?: string;
}

/** The pins of one server identity (its name and the hash of its launch config). */
export interface ServerPins {
  serverId: string;
  launchKey: string;
  /** By tool name. */
  tools: Map<string, ToolPin>;
}

/** One tool of a successful tools/list, with its definition and fingerprint. */
export interface ListedTool {
  definition: ToolDefinition;
  fingerprint: string;
}

/** What one comparison found, for the audit log. */
export type PinEvent =
  | { kind: 'pinned'; tool: string; fingerprint: string }
  | { kind: 'changed'; tool: string; from: string; to: string; readded: boolean }
  | { kind: 'removed'; tool: string; fingerprint: string }
  | { kind: 'reverted'; tool: string; fingerprint: string };

/**
 * Compare a server's successful tools/list with its pins and update them in place: a tool
 * seen for the first time is pinned at once; one that reads differently is marked changed
 * (the pin itself stays what was approved); one missing is marked removed; one that comes
 * back after being removed counts as changed even when it reads the same, since whatever
 * the person approved was withdrawn in between. Only a successful list may be compared: a
 * failed one says nothing about which tools exist.
 */
export function comparePins(
  pins: Map<string, ToolPin>,
  listed: readonly ListedTool[],
  now: string,
): PinEvent[] {
  const events: PinEvent[] = [];
  const seen = new Set<string>();
  for (const { definition, fingerprint } of listed) {
    const name = definition.name;
    // A hostile server may list a name twice (the first one is what the catalog offers), or none.
    if (typeof name !== 'string' || !name || seen.has(name)) continue;
    seen.add(name);
    const pin = pins.get(name);
    if (!pin) {
      pins.set(name, { definition, fingerprint, pinnedAt: now });
      events.push({ kind: 'pinned', tool: name, fingerprint });
      continue;
    }
    if (pin.removedAt !== undefined) {
      delete pin.removedAt;
      pin.change = { definition, fingerprint, changedAt: now, readded: true };
      events.push({ kind: 'changed', tool: name, from: pin.fingerprint, to: fingerprint, readded: true });
      continue;
    }
    if (fingerprint === pin.fingerprint) {
      // Back to exactly what was approved: nothing is left to review (a re-added tool still is).
      if (pin.change && !pin.change.readded) {
        delete pin.change;
        events.push({ kind: 'reverted', tool: name, fingerprint });
      }
      continue;
    }
    if (pin.change?.fingerprint === fingerprint) continue;
    const readded = pin.change?.readded ?? false;
    pin.change = { definition, fingerprint, changedAt: now, readded };
    events.push({ kind: 'changed', tool: name, from: pin.fingerprint, to: fingerprint, readded });
  }
  for (const [name, pin] of pins) {
    if (seen.has(name) || pin.removedAt !== undefined) continue;
    pin.removedAt = now;
    delete pin.change;
    events.push({ kind: 'removed', tool: name, fingerprint: pin.fingerprint });
  }
  return events;
}

/**
 * Accept a tool's change: the version the person saw (named by its fingerprint) becomes the
 * pin. False when there is nothing to accept, or when the tool changed again since (the newer
 * version was not what they saw, so it stays marked).
 */
export function acceptChange(pin: ToolPin | undefined, fingerprint: string, now: string): boolean {
  if (!pin?.change || pin.change.fingerprint !== fingerprint) return false;
  pin.definition = pin.change.definition;
  pin.fingerprint = pin.change.fingerprint;
  pin.pinnedAt = now;
  pin.approvedAt = now;
  delete pin.change;
  return true;
}

/**
 * A person allowed a call of the pinned version (named by its fingerprint): note when, so a
 * later change says "you approved" rather than "first seen". False when nothing changed.
 */
export function noteApproval(pin: ToolPin | undefined, fingerprint: string, now: string): boolean {
  if (!pin || pin.change || pin.approvedAt || pin.fingerprint !== fingerprint) return false;
  pin.approvedAt = now;
  return true;
}

/** The two versions of a changed tool, as the diff shows them. */
export function toolChangeOf(serverId: string, pin: ToolPin): ToolChange | undefined {
  if (!pin.change) return undefined;
  return {
    serverId,
    tool: pin.definition.name,
    pinned: pin.definition,
    pinnedAt: pin.pinnedAt,
    ...(pin.approvedAt ? { approvedAt: pin.approvedAt } : {}),
    current: pin.change.definition,
    changedAt: pin.change.changedAt,
    readded: pin.change.readded,
  };
}

const MAX_ID = 300;
const fingerprintSchema = z.string().regex(/^[0-9a-f]{64}$/, 'not a sha256 fingerprint');
const isoSchema = z.string().min(1).max(40);
const definitionSchema = z
  .object({
    // No length cap: whatever name a list may carry must read back, or its pin would be lost.
    name: z.string().min(1),
    title: z.string().optional(),
    description: z.string().optional(),
    inputSchema: z.unknown(),
    outputSchema: z.unknown().optional(),
    annotations: z.unknown().optional(),
  })
  .strict();
const pinSchema = z
  .object({
    definition: definitionSchema,
    fingerprint: fingerprintSchema,
    pinnedAt: isoSchema,
    approvedAt: isoSchema.optional(),
    change: z
      .object({
        definition: definitionSchema,
        fingerprint: fingerprintSchema,
        changedAt: isoSchema,
        readded: z.boolean(),
      })
      .strict()
      .optional(),
    removedAt: isoSchema.optional(),
  })
  .strict();
const serverSchema = z
  .object({
    serverId: z.string().min(1).max(MAX_ID),
    launchKey: z.string().min(1).max(MAX_ID),
    tools: z.array(z.unknown()),
  })
  .strict();
const fileSchema = z.object({ version: z.literal(1), servers: z.array(z.unknown()) }).strict();

/**
 * Read a pins file's parsed JSON, keeping every valid server and tool; `problems` gets one
 * line per dropped part, named by where it sat (`servers[1].tools[3]`).
 */
export function parsePins(value: unknown, problems: string[]): ServerPins[] {
  const file = fileSchema.safeParse(value);
  if (!file.success) {
    problems.push(`not a tool pins file (${describeIssues(file.error.issues)})`);
    return [];
  }
  const out: ServerPins[] = [];
  file.data.servers.forEach((raw, i) => {
    const server = serverSchema.safeParse(raw);
    if (!server.success) {
      problems.push(`servers[${i}]: ${describeIssues(server.error.issues)}`);
      return;
    }
    const tools = new Map<string, ToolPin>();
    server.data.tools.forEach((rawPin, j) => {
      const pin = pinSchema.safeParse(rawPin);
      if (pin.success) tools.set(pin.data.definition.name, pin.data);
      else problems.push(`servers[${i}].tools[${j}]: ${describeIssues(pin.error.issues)}`);
    });
    out.push({ serverId: server.data.serverId, launchKey: server.data.launchKey, tools });
  });
  return out;
}

/** The pins as the file stores them (the inverse of parsePins). */
export function serialisePins(servers: Iterable<ServerPins>): string {
  const list = [...servers].map((s) => ({
    serverId: s.serverId,
    launchKey: s.launchKey,
    tools: [...s.tools.values()],
  }));
  return `${JSON.stringify({ version: 1, servers: list }, null, 2)}\n`;
}
