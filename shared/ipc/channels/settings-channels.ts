import { z } from 'zod';
import type { ChatSettings, SecretStatus } from '../../domain/chat.js';
import { empty, providerId, typed } from './channel-kit.js';

const secretName = z.enum(['geminiApiKey', 'openaiApiKey']);

/** Chat settings, and the model providers' API keys (write-only). */
export const settingsChannels = {
  'settings.get': { request: empty, response: typed<ChatSettings>() },
  'settings.update': {
    request: z
      .object({
        provider: providerId.optional(),
        geminiModel: z.string().min(1).max(200).optional(),
        openaiBaseUrl: z
          .string()
          .url()
          .refine((u) => /^https?:\/\//i.test(u), 'must be http(s)')
          .optional(),
        openaiModel: z.string().min(1).max(200).optional(),
        maxTurns: z.number().int().min(1).max(100).optional(),
        disabledServers: z.array(z.string().max(64)).max(1000).optional(),
        disabledTools: z.array(z.string().max(300)).max(10_000).optional(),
      })
      .strict(),
    response: typed<ChatSettings>(),
  },

  /** Secrets are write-only: set or delete, and ask whether one is set. */
  'secrets.status': { request: empty, response: typed<SecretStatus>() },
  'secrets.set': {
    request: z.object({ name: secretName, value: z.string().min(1).max(10_000) }).strict(),
    response: typed<SecretStatus>(),
  },
  'secrets.delete': { request: z.object({ name: secretName }).strict(), response: typed<SecretStatus>() },
} as const;
