import type { CreateMessageRequest } from '@modelcontextprotocol/client';
import type { JsonSchema } from '../../../shared/domain/mcp-types.js';
import type { NewRequest } from '../pending/pending-broker.js';
import { invalid, parseMessages, toViews, type SamplingMessageIn } from './sampling-content.js';

/** A server may ask for more than any model gives; the cap keeps one request from running away. */
const MAX_TOKENS_CAP = 65_536;

/** A sampling request's parameters, checked: what the reviewer sees and what the model gets. */
export type Checked = Omit<
  NewRequest<'sampling'>,
  'stage' | 'suggestedModel' | 'reply' | 'serverId' | 'kind'
> & {
  parsed: SamplingMessageIn[];
  toolChoice?: 'auto' | 'none' | 'required';
};

/**
 * Check everything but the messages' content (sampling-content.ts does that). `includeContext`
 * is shown to the reviewer but not acted on: the spec lets a client ignore it (and soft-deprecates
 * it), and adding other servers' context to a request would leak it across servers.
 */
export function checkParams(params: CreateMessageRequest['params']): Checked {
  const p = params as unknown as Record<string, unknown>;
  const parsed = parseMessages(p.messages);
  const maxTokens = p.maxTokens;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)
    throw invalid('sampling "maxTokens" must be a positive integer');
  const temperature =
    typeof p.temperature === 'number' && Number.isFinite(p.temperature) ? p.temperature : undefined;
  const stopSequences = Array.isArray(p.stopSequences)
    ? p.stopSequences.filter((s): s is string => typeof s === 'string').slice(0, 16)
    : undefined;
  const tools = Array.isArray(p.tools) ? p.tools.map(checkTool) : undefined;
  const choice = isRecord(p.toolChoice) ? p.toolChoice.mode : undefined;
  const toolChoice = choice === 'auto' || choice === 'none' || choice === 'required' ? choice : undefined;
  const prefs = isRecord(p.modelPreferences) ? p.modelPreferences : undefined;
  const hints =
    prefs && Array.isArray(prefs.hints)
      ? prefs.hints
          .filter(isRecord)
          .map((h) => (typeof h.name === 'string' ? { name: h.name.slice(0, 200) } : {}))
      : undefined;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return {
    parsed,
    messages: toViews(parsed),
    ...(typeof p.systemPrompt === 'string' ? { systemPrompt: p.systemPrompt } : {}),
    ...(prefs
      ? {
          modelPreferences: {
            ...(hints ? { hints } : {}),
            ...(num(prefs.costPriority) !== undefined ? { costPriority: num(prefs.costPriority) } : {}),
            ...(num(prefs.speedPriority) !== undefined ? { speedPriority: num(prefs.speedPriority) } : {}),
            ...(num(prefs.intelligencePriority) !== undefined
              ? { intelligencePriority: num(prefs.intelligencePriority) }
              : {}),
          },
        }
      : {}),
    maxTokens: Math.min(maxTokens, MAX_TOKENS_CAP),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(stopSequences?.length ? { stopSequences } : {}),
    ...(typeof p.includeContext === 'string' ? { includeContext: p.includeContext } : {}),
    ...(tools?.length ? { tools } : {}),
    ...(toolChoice ? { toolChoice } : {}),
  };
}

function checkTool(t: unknown, i: number): { name: string; description?: string; inputSchema?: JsonSchema } {
  if (!isRecord(t) || typeof t.name !== 'string' || !t.name) throw invalid(`tools[${i}] needs a name`);
  return {
    name: t.name,
    ...(typeof t.description === 'string' ? { description: t.description } : {}),
    ...(isRecord(t.inputSchema) ? { inputSchema: t.inputSchema } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
