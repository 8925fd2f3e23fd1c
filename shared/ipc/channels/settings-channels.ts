import { z } from 'zod';
import type { ChatSettings, SecretStatus } from '../../domain/chat.js';
import { chatSettingsPatchSchema } from '../../domain/chat-settings.js';
import { empty, typed } from './channel-kit.js';

const secretName = z.enum(['geminiApiKey', 'openaiApiKey']);

/** Chat settings, and the model providers' API keys (write-only). */
export const settingsChannels = {
  'settings.get': { request: empty, response: typed<ChatSettings>() },
  'settings.update': {
    request: chatSettingsPatchSchema,
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
