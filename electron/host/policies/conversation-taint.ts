import type { FlowLink, TaintKind } from '../../../shared/domain/flows.js';
import type { ToolWarning } from '../../../shared/domain/tool-trust.js';
import { inspectResult } from '../tool-trust/inspect-result.js';
import { inspectText } from '../tool-trust/inspect-text.js';

/** One piece of untrusted content as it entered a conversation. */
export interface TaintNote {
  /** Names the piece, so the same content seen twice (a replayed history) counts once. */
  key: string;
  kind: TaintKind;
  serverId: string;
  name: string;
  at: number;
  text: string;
}

interface Entry extends TaintNote {
  warnings: ToolWarning[];
}

interface State {
  entries: Entry[];
  keys: Set<string>;
  /** Pieces noted in all, kept or not. */
  total: number;
  /** Content up to this time was trusted by a person ("I trust this content"). */
  releasedAt?: number;
  /** Where the pieces since the last release came from (`kind/server/name`); undefined past the cap. */
  origins?: Set<string>;
  /** The conversation read something sensitive (local files, secrets). */
  sensitive: boolean;
}

/** Origins counted per conversation before it is simply "from many places". */
const MAX_ORIGINS = 50;

/** The most of one piece that is kept to show (and to find a call's arguments in). */
const MAX_TEXT = 20_000;
/** Pieces kept per conversation: the newest; older ones still count in `total`. */
const MAX_ENTRIES = 30;
/** Conversations tracked at once; the least recently touched is dropped (its history seeds it again). */
const MAX_CONVERSATIONS = 200;
/** Links an approval card shows. */
const MAX_LINKS = 5;
/** Context kept on each side of a carried passage. */
const CONTEXT = 160;
/** Argument strings shorter than this are too common to say where a call came from. */
const MIN_CARRIED = 6;

/**
 * The untrusted content each conversation has taken in: tool results from sources, attached
 * resources, sampling requests, an app view's messages and model context. Kept in memory; a
 * conversation's stored history seeds it again at each run (so a restart does not clear it),
 * while a release ("I trust this content") covers only what came before it.
 */
export class ConversationTaint {
  private readonly states = new Map<string, State>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Record a piece of untrusted content; false when it was already known or was released. */
  note(conversationId: string, piece: TaintNote): boolean {
    const state = this.stateOf(conversationId);
    if (state.keys.has(piece.key)) return false;
    if (state.releasedAt !== undefined && piece.at <= state.releasedAt) return false;
    const text = piece.text.length > MAX_TEXT ? `${piece.text.slice(0, MAX_TEXT)}…` : piece.text;
    const warnings = inspectResult({ content: [{ type: 'text', text }] });
    state.keys.add(piece.key);
    state.origins?.add(originKey(piece.kind, piece.serverId, piece.name));
    if (state.origins && state.origins.size > MAX_ORIGINS) state.origins = undefined;
    state.entries.push({ ...piece, text, warnings });
    state.entries.sort((a, b) => a.at - b.at);
    if (state.entries.length > MAX_ENTRIES) state.entries.splice(0, state.entries.length - MAX_ENTRIES);
    state.total += 1;
    return true;
  }

  /** Whether a piece of this key was already looked at (noted, or seen before a release). */
  knows(conversationId: string, key: string): boolean {
    return this.states.get(conversationId)?.keys.has(key) ?? false;
  }

  /** Remember a piece that was looked at and found harmless, so a replayed history skips it. */
  seen(conversationId: string, key: string): void {
    this.stateOf(conversationId).keys.add(key);
  }

  /** Whether untrusted content came into the conversation since its last release. */
  isTainted(conversationId: string): boolean {
    return (this.states.get(conversationId)?.entries.length ?? 0) > 0;
  }

  /**
   * The chain a held call's card shows: the pieces its arguments' text appears in first, then
   * those with injection markers, then the rest, each as a window of its text.
   */
  chainFor(conversationId: string, args: Record<string, unknown>): { chain: FlowLink[]; total: number } {
    const state = this.states.get(conversationId);
    if (!state) return { chain: [], total: 0 };
    const needles = argumentTexts(args);
    const links = state.entries.map((e) => toLink(e, needles));
    const rank = (l: FlowLink) => (l.carried ? 0 : l.warnings.length ? 1 : 2);
    const sorted = links
      .map((l, i) => ({ l, i }))
      .sort((a, b) => rank(a.l) - rank(b.l) || a.i - b.i)
      .map((x) => x.l);
    return { chain: sorted.slice(0, MAX_LINKS), total: state.total };
  }

  /** A person trusts what the conversation has read so far: returns what was released. */
  release(conversationId: string): TaintNote[] {
    const state = this.stateOf(conversationId);
    const released = state.entries.map(({ warnings: _w, ...note }) => note);
    state.entries = [];
    state.origins = new Set();
    state.releasedAt = this.now();
    return released;
  }

  /** The conversation read something sensitive (a result of a sensitive tool). */
  noteSensitive(conversationId: string): void {
    this.stateOf(conversationId).sensitive = true;
  }

  /**
   * Whether everything untrusted in the conversation is the results of this one tool, and it
   * read nothing sensitive: then a fetch by that tool has nothing to carry out it did not bring in.
   */
  onlyFrom(conversationId: string, serverId: string, tool: string): boolean {
    const state = this.states.get(conversationId);
    if (!state || state.sensitive || !state.origins) return false;
    const own = originKey('tool-result', serverId, tool);
    return [...state.origins].every((o) => o === own);
  }

  /** The conversation was deleted. */
  forget(conversationId: string): void {
    this.states.delete(conversationId);
  }

  private stateOf(conversationId: string): State {
    let state = this.states.get(conversationId);
    if (state) {
      // Most recently touched last: the first key is the one to drop when there are too many.
      this.states.delete(conversationId);
    } else {
      state = { entries: [], keys: new Set(), total: 0, origins: new Set(), sensitive: false };
      const oldest = this.states.keys().next();
      if (this.states.size >= MAX_CONVERSATIONS && !oldest.done) this.states.delete(oldest.value);
    }
    this.states.set(conversationId, state);
    return state;
  }
}

function originKey(kind: string, serverId: string, name: string): string {
  return `${kind}\u0000${serverId}\u0000${name}`;
}

/** The string values of a call's arguments long enough to recognise, longest first. */
function argumentTexts(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (out.length >= 50 || depth > 8) return;
    if (typeof v === 'string') {
      const t = v.trim();
      if (t.length >= MIN_CARRIED) out.push(t.length > 2000 ? t.slice(0, 2000) : t);
    } else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(args, 0);
  return out.sort((a, b) => b.length - a.length);
}

function toLink(e: Entry, needles: readonly string[]): FlowLink {
  const link = windowOf(e, needles);
  // Marked in the passage itself, so the person sees the orders where the carried text sits.
  const marks = inspectText({ field: 'result', mode: 'result' }, link.passage).map((f) => ({
    start: f.start,
    end: f.end,
    kind: f.kind,
  }));
  return { ...link, marks };
}

function windowOf(e: Entry, needles: readonly string[]): Omit<FlowLink, 'marks'> {
  const base = { kind: e.kind, serverId: e.serverId, name: e.name, at: e.at, warnings: e.warnings };
  for (const needle of needles) {
    const at = e.text.indexOf(needle);
    if (at < 0) continue;
    const from = Math.max(0, at - CONTEXT);
    const to = Math.min(e.text.length, at + needle.length + CONTEXT);
    const lead = from > 0 ? '…' : '';
    const tail = to < e.text.length ? '…' : '';
    const start = at - from + lead.length;
    return {
      ...base,
      passage: `${lead}${e.text.slice(from, to)}${tail}`,
      carried: { start, end: start + needle.length },
    };
  }
  const marked = e.warnings[0]?.passages[0];
  if (marked) return { ...base, passage: marked.text };
  return { ...base, passage: e.text.length > 400 ? `${e.text.slice(0, 400)}…` : e.text };
}
