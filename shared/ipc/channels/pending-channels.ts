import { z } from 'zod';
import type { PendingRequest, SamplingConsent } from '../../domain/pending.js';
import { empty, serverId, typed } from './channel-kit.js';

const pendingId = z.string().min(1).max(100);
const approvalChoice = z.enum(['once', 'chat', 'view', 'always', 'deny', 'switch-off']);
const samplingContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().max(1_000_000) }).strict(),
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string().max(100) }).strict(),
  z.object({ type: z.literal('audio'), data: z.string(), mimeType: z.string().max(100) }).strict(),
  z.object({ type: z.literal('other'), summary: z.string() }).strict(),
]);
const pendingResponse = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tool-approval'), choice: approvalChoice }).strict(),
  z
    .object({
      kind: z.literal('sampling'),
      action: z.enum(['approve', 'deny']),
      messages: z
        .array(
          z
            .object({ role: z.enum(['user', 'assistant']), content: z.array(samplingContent).max(100) })
            .strict(),
        )
        .max(200)
        .optional(),
      systemPrompt: z.string().max(200_000).optional(),
      model: z
        .object({ provider: z.enum(['gemini', 'openai']), model: z.string().min(1).max(200) })
        .strict()
        .optional(),
      remember: z.enum(['session', 'always', 'never']).optional(),
      replyText: z.string().max(1_000_000).optional(),
      skipReplyReview: z.boolean().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('elicitation'),
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
]);

/** Everything waiting on a person, the answer to one of them, and standing sampling decisions. */
export const pendingChannels = {
  /** A server's standing sampling decision: ask each time, this session, always, never. */
  'sampling.consent.get': {
    request: z.object({ serverId }).strict(),
    response: typed<{ consent: SamplingConsent; skipReplyReview: boolean }>(),
  },
  'sampling.consent.set': {
    request: z
      .object({
        serverId,
        consent: z.enum(['ask', 'session', 'always', 'never']),
        skipReplyReview: z.boolean().optional(),
      })
      .strict(),
    response: typed<{ consent: SamplingConsent; skipReplyReview: boolean }>(),
  },

  'pending.list': { request: empty, response: typed<PendingRequest[]>() },
  /** Either a tool approval's choice, or a full response for sampling and elicitation. */
  'pending.respond': {
    request: z.union([
      z.object({ id: pendingId, choice: approvalChoice }).strict(),
      z.object({ id: pendingId, response: pendingResponse }).strict(),
    ]),
    response: typed<{ settled: boolean }>(),
  },
} as const;
