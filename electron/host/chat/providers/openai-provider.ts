import { randomUUID } from 'node:crypto';
import type { TokenUsage } from '../../../../shared/domain/metrics.js';
import { isRecord } from '../../schema/json-schema-refs.js';
import { unreachableReason } from '../../util/plain-failure.js';
import {
  ProviderError,
  type ChatProvider,
  type EmbedOptions,
  type ProviderEvent,
  type StreamRequest,
} from '../provider.js';
import { toOpenAiMessages, toOpenAiTool } from './openai-request.js';

/** Any server speaking OpenAI's /v1/chat/completions: Ollama, LM Studio, llama.cpp, vLLM, OpenAI. */
export interface OpenAiProviderOptions {
  /** The API root, e.g. http://localhost:11434/v1 (requests go to `${baseUrl}/chat/completions`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; local servers usually need none. */
  apiKey?: string;
}

/**
 * OpenAI documents "A max of 128 functions are supported" for `tools`
 * (https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools); local
 * servers inherit the limit in spirit, and small models do far worse long before it.
 */
export const OPENAI_MAX_TOOLS = 128;

interface ToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface CompletionChunk {
  choices?: { delta?: ChoiceDelta; message?: ChoiceDelta; finish_reason?: string | null }[];
  /** The turn's token counts: on the last chunk when stream_options.include_usage is set, or the whole body. */
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
  error?: unknown;
}

interface ChoiceDelta {
  content?: string | null;
  /** Reasoning text: DeepSeek, vLLM and LM Studio call it reasoning_content, Ollama reasoning. */
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: ToolCallDelta[];
}

/** Chat completions over SSE, with streamed tool calls assembled from their deltas. */
export class OpenAiProvider implements ChatProvider {
  readonly id = 'openai' as const;
  readonly maxTools = OPENAI_MAX_TOOLS;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;

  constructor(options: OpenAiProviderOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey || undefined;
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    const res = await this.fetch('/models', { method: 'GET', headers: this.headers() }, signal);
    const body: unknown = await res.json().catch(() => undefined);
    const data = isRecord(body) && Array.isArray(body.data) ? body.data : [];
    return data.flatMap((m) => (isRecord(m) && typeof m.id === 'string' ? [m.id] : [])).sort();
  }

  /** Ollama's usual embedding model; LM Studio and others name theirs in settings. */
  readonly defaultEmbeddingModel = 'nomic-embed-text';

  /** `POST /embeddings` (OpenAI's shape, which Ollama and LM Studio serve too). */
  async embed(texts: readonly string[], model: string, options: EmbedOptions = {}): Promise<number[][]> {
    const { signal } = options;
    const res = await this.fetch(
      '/embeddings',
      { method: 'POST', headers: this.headers(), body: JSON.stringify({ model, input: texts }) },
      signal,
    );
    const body: unknown = await res.json().catch(() => undefined);
    const data = isRecord(body) && Array.isArray(body.data) ? body.data : [];
    const vectors = data
      .filter(isRecord)
      .sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0))
      .map((d) => (Array.isArray(d.embedding) ? d.embedding.map(Number) : []));
    if (vectors.length !== texts.length || vectors.some((v) => v.length === 0))
      throw new ProviderError(
        `the embeddings answer held ${vectors.length} vectors for ${texts.length} texts`,
        false,
      );
    return vectors;
  }

  async *stream(request: StreamRequest): AsyncIterable<ProviderEvent> {
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    if (request.signal.aborted) controller.abort();
    const calls = new Map<number, { id?: string; name: string; args: string }>();
    let finishReason: string | undefined;
    let usage: TokenUsage | undefined;
    try {
      const body = {
        model: request.model,
        messages: toOpenAiMessages(request.system, request.messages),
        stream: true,
        // Without it a streamed completion reports no usage at all.
        stream_options: { include_usage: true },
        ...(request.tools.length
          ? { tools: request.tools.map(toOpenAiTool), tool_choice: request.toolMode ?? 'auto' }
          : {}),
        ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.stopSequences?.length ? { stop: request.stopSequences } : {}),
      };
      const res = await this.fetch(
        '/chat/completions',
        { method: 'POST', headers: this.headers(), body: JSON.stringify(body) },
        controller.signal,
      );
      const chunks = (res.headers.get('content-type') ?? '').includes('text/event-stream')
        ? sseData(res, controller.signal)
        : wholeBody(res);
      for await (const data of chunks) {
        if (data === '[DONE]') break;
        const chunk = parseChunk(data);
        if (chunk.error !== undefined)
          throw new ProviderError(
            this.redact(`The model server reported an error: ${errorText(chunk.error)}`),
            false,
          );
        const choice = chunk.choices?.[0];
        const delta = choice?.delta ?? choice?.message;
        const reasoning = delta?.reasoning_content ?? delta?.reasoning;
        if (reasoning) yield { type: 'thinking', text: reasoning };
        if (delta?.content) yield { type: 'text', text: delta.content };
        for (const [i, d] of (delta?.tool_calls ?? []).entries()) {
          // Deltas carry an index; the id and name come once, the arguments in pieces.
          const index = d.index ?? i;
          const call = calls.get(index) ?? { name: '', args: '' };
          if (d.id) call.id = d.id;
          if (d.function?.name) call.name += d.function.name;
          if (d.function?.arguments) call.args += d.function.arguments;
          calls.set(index, call);
        }
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        if (chunk.usage) usage = toUsage(chunk.usage);
      }
      // An abort between reads ends the SSE loop quietly; it must still read as a stop.
      if (request.signal.aborted)
        throw new ProviderError('The request to the model server was cancelled.', false);
    } catch (error) {
      throw this.providerError(error, request.signal);
    } finally {
      request.signal.removeEventListener('abort', onAbort);
      controller.abort();
    }
    for (const [, call] of [...calls].sort(([a], [b]) => a - b)) {
      yield {
        type: 'function_call',
        id: call.id || `call_${randomUUID()}`,
        name: call.name,
        args: parseArgs(call.name, call.args),
      };
    }
    yield { type: 'done', ...(finishReason ? { finishReason } : {}), ...(usage ? { usage } : {}) };
  }

  private headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'text/event-stream, application/json',
      ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
    };
  }

  private async fetch(path: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, { ...init, ...(signal ? { signal } : {}) });
    } catch (error) {
      throw this.providerError(error, signal);
    }
    if (res.ok) return res;
    const text = await res.text().catch(() => '');
    let detail = text.slice(0, 500);
    try {
      const body: unknown = JSON.parse(text);
      if (isRecord(body)) detail = errorText(body.error ?? body.message ?? body);
    } catch {
      // Not JSON: keep the text.
    }
    const hint =
      res.status === 401 || res.status === 403
        ? ' Check the API key.'
        : res.status === 404
          ? ' Check the base URL and the model name.'
          : '';
    throw new ProviderError(
      this.redact(`Model server error ${res.status} at ${this.host()}: ${detail || res.statusText}.${hint}`),
      res.status === 408 || res.status === 429 || res.status >= 500,
      res.status,
    );
  }

  private providerError(error: unknown, signal?: AbortSignal): ProviderError {
    if (error instanceof ProviderError) return error;
    if (signal?.aborted) return new ProviderError('The request to the model server was cancelled.', false);
    return new ProviderError(
      this.redact(`Could not reach the model server at ${this.host()} — ${unreachableReason(error)}`),
      true,
    );
  }

  private redact(text: string): string {
    return this.apiKey ? text.split(this.apiKey).join('[redacted]') : text;
  }

  private host(): string {
    try {
      return new URL(this.baseUrl).host;
    } catch {
      return this.baseUrl;
    }
  }
}

/** The `data:` payloads of a server-sent event stream. */
async function* sseData(res: Response, signal: AbortSignal): AsyncIterable<string> {
  if (!res.body) return;
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  try {
    for (;;) {
      if (signal.aborted) return;
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\r|\n/);
      buffer = done ? '' : (lines.pop() ?? '');
      for (const line of lines) {
        if (line === '') {
          if (data.length) yield data.join('\n');
          data = [];
        } else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (done) {
        if (data.length) yield data.join('\n');
        return;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** A server that ignored `stream: true` answers with one JSON completion. */
async function* wholeBody(res: Response): AsyncIterable<string> {
  yield await res.text();
}

function parseChunk(data: string): CompletionChunk {
  try {
    const parsed: unknown = JSON.parse(data);
    return isRecord(parsed) ? parsed : {};
  } catch {
    throw new ProviderError(`The model server sent something that is not JSON: ${data.slice(0, 120)}`, false);
  }
}

function parseArgs(name: string, text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) return parsed;
  } catch {
    // fall through
  }
  throw new ProviderError(
    `The model sent malformed arguments for tool "${name}": ${text.slice(0, 200)}`,
    false,
  );
}

function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return JSON.stringify(error);
}

/** OpenAI's usage object as ours (missing counts are zero; total falls back to the sum). */
function toUsage(u: NonNullable<CompletionChunk['usage']>): TokenUsage {
  const input = u.prompt_tokens ?? 0;
  const output = u.completion_tokens ?? 0;
  return { inputTokens: input, outputTokens: output, totalTokens: u.total_tokens ?? input + output };
}
