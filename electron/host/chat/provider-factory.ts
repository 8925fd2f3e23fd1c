import type { ChatSettings, ProviderId } from '../../../shared/domain/chat.js';
import type { SecretStore } from '../stores/secret-store.js';
import { HostFailure } from '../util/errors.js';
import type { ChatProvider } from './provider.js';
import { GeminiProvider } from './providers/gemini/gemini-provider.js';
import { OpenAiProvider } from './providers/openai-provider.js';

/** Where providers connect, for tests and self-hosted gateways. */
export interface ProviderOverrides {
  /** --base-url or MCP_DESK_GEMINI_BASE_URL: wins over the endpoint in chat settings. */
  geminiBaseUrl?: string;
  /** A key given on the command line or by env (CLI); otherwise the keychain's. */
  geminiApiKey?: string;
}

/** Builds the provider a conversation runs on from settings and keychain secrets. */
export class ProviderFactory {
  constructor(
    private readonly secrets: SecretStore,
    private readonly overrides: ProviderOverrides = {},
  ) {}

  async create(settings: ChatSettings, provider: ProviderId = settings.provider): Promise<ChatProvider> {
    if (provider === 'openai') {
      const apiKey = await this.secrets.get('openaiApiKey').catch(() => undefined);
      return new OpenAiProvider({ baseUrl: settings.openaiBaseUrl, ...(apiKey ? { apiKey } : {}) });
    }
    const apiKey = this.overrides.geminiApiKey ?? (await this.secrets.get('geminiApiKey'));
    if (!apiKey) {
      throw new HostFailure(
        'api_key_missing',
        'No Gemini API key is set: add one in Settings (it is kept in the OS keychain), or set GEMINI_API_KEY for the CLI.',
      );
    }
    const baseUrl = this.overrides.geminiBaseUrl || settings.geminiBaseUrl;
    return new GeminiProvider({ apiKey, ...(baseUrl ? { baseUrl } : {}) });
  }

  /** The Gemini endpoint given on the command line or by env, if any (the UI says it wins). */
  get geminiBaseUrlOverride(): string | undefined {
    return this.overrides.geminiBaseUrl || undefined;
  }

  /** The model a settings object selects for its provider. */
  static modelOf(settings: ChatSettings): string {
    return settings.provider === 'openai' ? settings.openaiModel : settings.geminiModel;
  }
}
