import {
  ProtocolError,
  ProtocolErrorCode,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import type { JsonSchema } from '../../../shared/domain/mcp-types.js';
import {
  parseRequestedSchema,
  secretLikeFields,
  showName,
  validateElicitContent,
  withDefaults,
} from '../../../shared/elicitation/elicitation-schema.js';
import type { RequestOrigin } from '../../../shared/domain/pending.js';
import type { PendingBroker } from '../pending/pending-broker.js';
import type { Attribution } from '../servers/call-origins.js';

/** Opens a URL in the person's browser (Electron: shell.openExternal after a check). */
export type OpenExternal = (url: string) => Promise<void>;

export interface ElicitationServiceDeps {
  broker: PendingBroker;
  openExternal: OpenExternal;
  /** How long a request waits for a person before it is cancelled. */
  timeoutMs?: number;
  /** How many times an invalid answer is sent back to the person before giving up (cancel). */
  maxAttempts?: number;
}

const MAX_MESSAGE = 20_000;

/**
 * Answers a server's elicitation/create (2025 request or 2026-07-28 input_required round):
 * checks what the server asks for, puts it in the pending queue for a person, checks the
 * answer, and always settles. A malformed request is refused to the server as InvalidParams;
 * nothing a server sends can crash the host. Decline and cancel stay distinct, as the spec
 * requires; a timeout, a stopped server or shutdown is a cancel.
 */
export class ElicitationService {
  /** Aborts every request of this service at once (dispose). */
  private readonly closing = new AbortController();
  private readonly timeoutMs?: number;
  private readonly maxAttempts: number;

  constructor(private readonly deps: ElicitationServiceDeps) {
    this.timeoutMs = deps.timeoutMs;
    this.maxAttempts = deps.maxAttempts ?? 3;
  }

  /**
   * The `handlers.elicit` of every connection. `cause` is the tool call that made the server
   * ask: the form carries it (so it shows where that call is), and stopping it cancels the form.
   */
  async handle(
    serverId: string,
    params: ElicitRequest['params'],
    signal?: AbortSignal,
    cause?: Attribution,
  ): Promise<ElicitResult> {
    const raw: unknown = params;
    if (raw === null || typeof raw !== 'object') throw invalid('elicitation params must be an object');
    const p = raw as Record<string, unknown>;
    if (typeof p.message !== 'string') throw invalid('elicitation "message" must be a string');
    if (p.message.length > MAX_MESSAGE)
      throw invalid(
        `elicitation "message" is too long (${p.message.length} characters, at most ${MAX_MESSAGE})`,
      );
    const message = p.message;
    const mode = p.mode ?? 'form';
    if (mode !== 'form' && mode !== 'url')
      throw invalid(`unsupported elicitation mode ${JSON.stringify(shown(mode).slice(0, 40))} (form or url)`);

    const signals = [signal, this.closing.signal, cause?.signal].filter((s) => s !== undefined);
    const hold = this.deps.broker.hold(serverId, AbortSignal.any(signals));
    const origin = cause?.origin;
    try {
      return mode === 'url'
        ? await this.url(serverId, message, p.url, hold.signal, origin)
        : await this.form(serverId, message, p.requestedSchema, hold.signal, origin);
    } finally {
      hold.release();
    }
  }

  /** Cancel everything a server is waiting on (the broker's `cancelServer`: one place for all kinds). */
  cancelServer(serverId: string): void {
    this.deps.broker.cancelServer(serverId);
  }

  /** Servers waiting on something (the broker's list, which this service's requests join). */
  activeServers(): string[] {
    return this.deps.broker.waitingServers();
  }

  /** Cancel every request of this service still in flight (the host is shutting down). */
  dispose(): void {
    this.closing.abort();
  }

  private async form(
    serverId: string,
    message: string,
    schema: unknown,
    signal: AbortSignal,
    origin: RequestOrigin | undefined,
  ): Promise<ElicitResult> {
    const parsed = parseRequestedSchema(schema);
    if (!parsed.ok) throw invalid(parsed.error);
    const fields = parsed.fields;
    const baseWarnings = secretLikeFields(fields).map(
      (name) =>
        `“${clip(name)}” looks like it asks for a secret: servers must not ask for passwords in form mode`,
    );
    let warnings = baseWarnings;
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      const answer = await this.deps.broker.request<'elicitation'>(
        {
          kind: 'elicitation',
          serverId,
          mode: 'form',
          message,
          requestedSchema: schema as JsonSchema,
          warnings,
          ...(origin ? { origin } : {}),
        },
        { ...(this.timeoutMs !== undefined ? { timeoutMs: this.timeoutMs } : {}), signal },
      );
      if (typeof answer === 'string') return { action: 'cancel' };
      if (answer.action !== 'accept') return { action: answer.action };
      const checked = validateElicitContent(fields, withDefaults(fields, answer.content ?? {}));
      if (checked.ok) return { action: 'accept', content: checked.content };
      // Ask again rather than send the server something its schema forbids.
      const problems = Object.entries(checked.errors).map(
        ([k, v]) => `${k === '' ? 'answer' : showName(k)} ${v}`,
      );
      warnings = [...baseWarnings, `The answer was not accepted: ${problems.join('; ')}`];
    }
    return { action: 'cancel' };
  }

  private async url(
    serverId: string,
    message: string,
    url: unknown,
    signal: AbortSignal,
    origin: RequestOrigin | undefined,
  ): Promise<ElicitResult> {
    if (typeof url !== 'string') throw invalid('a url-mode elicitation needs a "url" string');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalid('the elicitation "url" is not a valid URL');
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
      throw invalid(`the elicitation "url" must be http or https, not ${parsed.protocol.replace(/:$/, '')}`);
    const warnings = parsed.protocol === 'http:' ? ['This link is not encrypted (http, not https).'] : [];
    if (parsed.username || parsed.password) warnings.push('This link carries a user name or password in it.');
    // The spec asks for a warning on Punycode: a look-alike domain is the classic phishing trick.
    if (parsed.hostname.split('.').some((label) => label.startsWith('xn--')))
      warnings.push(`The domain ${parsed.hostname} uses Punycode and may imitate another site.`);
    const answer = await this.deps.broker.request<'elicitation'>(
      {
        kind: 'elicitation',
        serverId,
        mode: 'url',
        message,
        url,
        domain: parsed.hostname,
        warnings,
        ...(origin ? { origin } : {}),
      },
      { ...(this.timeoutMs !== undefined ? { timeoutMs: this.timeoutMs } : {}), signal },
    );
    if (typeof answer === 'string') return { action: 'cancel' };
    if (answer.action !== 'accept') return { action: answer.action };
    try {
      await this.deps.openExternal(url);
    } catch {
      // The person agreed but nothing opened: not an accept the server could rely on.
      return { action: 'cancel' };
    }
    return { action: 'accept' };
  }
}

function clip(name: string): string {
  return name.length > 60 ? `${name.slice(0, 60)}…` : name;
}

function invalid(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

/** A value the server sent where a string belonged, as an error message quotes it. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? typeof value);
}
