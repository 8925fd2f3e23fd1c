import { z } from 'zod';
import type { ChatSettings } from './chat.js';

const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');

/** The longest system prompt a chat or the settings keep. */
export const MAX_SYSTEM_PROMPT = 20_000;

/** A sampling temperature: Gemini and OpenAI both take 0 to 2. */
export const temperatureSchema = z.number().min(0).max(2);

/**
 * The chat settings: one schema for what the settings store keeps and what `settings.update`
 * accepts over the contract. Model names are trimmed, so a stray space typed into a field never
 * becomes part of a stored model id.
 */
export const chatSettingsSchema = z
  .object({
    provider: z.enum(['gemini', 'openai']),
    geminiModel: z.string().trim().min(1).max(200),
    // Empty means Google's endpoint; anything else must be an http(s) URL (a proxy, a gateway).
    geminiBaseUrl: z
      .string()
      .trim()
      .max(2000)
      .refine((u) => u === '' || httpUrl.safeParse(u).success, 'must be empty or an http(s) URL'),
    openaiBaseUrl: httpUrl,
    openaiModel: z.string().trim().min(1).max(200),
    maxTurns: z.number().int().min(1).max(100),
    disabledServers: z.array(z.string().min(1).max(64)).max(1000),
    disabledTools: z.array(z.string().min(1).max(300)).max(10_000),
    checklistDismissed: z.boolean().optional(),
    offerMode: z.enum(['search', 'all']).optional(),
    offerMaxTools: z.number().int().min(1).max(128).optional(),
    offerMaxCost: z.number().int().min(500).max(500_000).optional(),
    alwaysOffer: z.array(z.string().min(1).max(300)).max(500).optional(),
    semanticRanking: z.boolean().optional(),
    embeddingModel: z.string().trim().max(200).optional(),
    systemPrompt: z.string().max(MAX_SYSTEM_PROMPT).optional(),
    temperature: temperatureSchema.optional(),
  })
  .strict() satisfies z.ZodType<ChatSettings>;

/**
 * A change to some chat settings (`settings.update`): a subset of the fields, nothing else;
 * `temperature: null` returns it to the provider's default.
 */
export const chatSettingsPatchSchema = chatSettingsSchema
  .partial()
  .extend({ temperature: temperatureSchema.nullable().optional() })
  .strict();
