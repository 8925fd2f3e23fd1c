import { randomUUID } from 'node:crypto';
import {
  ApiError,
  FunctionCallingConfigMode,
  GoogleGenAI,
  type Content,
  type GenerateContentResponse,
  type GenerateContentResponseUsageMetadata,
  type Part,
} from '@google/genai';
import type { TokenUsage } from '../../../../../shared/domain/metrics.js';
import { toGeminiDeclarations } from './gemini-declarations.js';
import { applyArgFixes, type ArgFix } from './gemini-schema.js';
import { unreachableReason } from '../../../util/plain-failure.js';
import {
  ProviderError,
  type ChatProvider,
  type EmbedOptions,
  type ModelMessage,
  type ModelPart,
  type ProviderEvent,
  type StreamRequest,
} from '../../provider.js';

/** Where and how to reach the Gemini API; the key comes from the caller (keychain), never env. */
export interface GeminiProviderOptions {
  apiKey: string;
  /** A gateway or the test fake; default the public endpoint. */
  baseUrl?: string;
  apiVersion?: 'v1beta' | 'v1';
}

const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

/**
 * Per request. Google's references disagree and none speaks for the Developer API itself:
 * Vertex's Tool.functionDeclarations says "Maximum 128 function declarations can be provided"
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1beta1/Tool; older
 * revisions said 64), while the live Developer API answers "At most 512 function declarations
 * can be specified" (quoted in google-gemini/gemini-cli#19083). 128 is the documented number,
 * and the function-calling guide advises far fewer for accuracy anyway.
 */
export const GEMINI_MAX_TOOLS = 128;

/**
 * When a model turn in the history has a function call without a thought signature (a
 * conversation begun on another provider or model), Gemini 3 answers 400. Google documents
 * this value for exactly that case (https://ai.google.dev/gemini-api/docs/thought-signatures,
 * FAQ on injecting custom function calls).
 */
const SKIP_SIGNATURE = 'skip_thought_signature_validator';

/** Gemini through the official `@google/genai` SDK, streaming over SSE. */
export class GeminiProvider implements ChatProvider {
  readonly id = 'gemini' as const;
  readonly maxTools = GEMINI_MAX_TOOLS;
  private readonly ai: GoogleGenAI;
  private readonly apiKey: string;
  private readonly baseUrl: string;

  constructor(options: GeminiProviderOptions) {
    this.apiKey = options.apiKey;
    this.baseUrl = options.baseUrl ?? DEFAULT_BASE_URL;
    // Every choice explicit: the SDK otherwise consults GOOGLE_GENAI_USE_VERTEXAI,
    // GOOGLE_API_KEY and GOOGLE_GEMINI_BASE_URL from the environment.
    this.ai = new GoogleGenAI({
      vertexai: false,
      apiKey: options.apiKey,
      httpOptions: { baseUrl: this.baseUrl, apiVersion: options.apiVersion ?? 'v1beta' },
    });
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    try {
      const pager = await this.ai.models.list({
        config: { pageSize: 100, ...(signal ? { abortSignal: signal } : {}) },
      });
      const names: string[] = [];
      for await (const model of pager) {
        if (!model.name || !model.supportedActions?.includes('generateContent')) continue;
        names.push(model.name.replace(/^models\//, ''));
      }
      return names;
    } catch (error) {
      throw this.providerError(error, signal);
    }
  }

  readonly defaultEmbeddingModel = 'gemini-embedding-001';

  /**
   * Gemini embeddings through the SDK (one batchEmbedContents request, at most 100 texts). A
   * search's text and the texts searched get the task types Gemini tunes each for.
   */
  async embed(texts: readonly string[], model: string, options: EmbedOptions = {}): Promise<number[][]> {
    const { signal } = options;
    try {
      const res = await this.ai.models.embedContent({
        model,
        contents: [...texts],
        config: {
          taskType: options.purpose === 'query' ? 'RETRIEVAL_QUERY' : 'RETRIEVAL_DOCUMENT',
          ...(signal ? { abortSignal: signal } : {}),
        },
      });
      const vectors = (res.embeddings ?? []).map((e) => e.values ?? []);
      if (vectors.length !== texts.length || vectors.some((v) => v.length === 0))
        throw new ProviderError(
          `the embeddings answer held ${vectors.length} vectors for ${texts.length} texts`,
          false,
        );
      return vectors;
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      throw this.providerError(error, signal);
    }
  }

  async *stream(request: StreamRequest): AsyncIterable<ProviderEvent> {
    // Our own controller, so that a consumer that stops iterating (not only one that aborts)
    // also closes the HTTP stream.
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    if (request.signal.aborted) controller.abort();
    let finishReason: string | undefined;
    let usage: TokenUsage | undefined;
    try {
      const { declarations, fixes } = toGeminiDeclarations(request.tools);
      const contents = toGeminiContents(request.messages);
      const stream = await this.ai.models.generateContentStream({
        model: request.model,
        contents,
        config: {
          ...(request.system ? { systemInstruction: request.system } : {}),
          ...(declarations.length ? { tools: [{ functionDeclarations: declarations }] } : {}),
          // NONE is sent even without declarations: the history may still hold function calls,
          // and the turn must not produce new ones.
          ...(declarations.length || request.toolMode === 'none'
            ? { toolConfig: { functionCallingConfig: { mode: callingMode(request.toolMode) } } }
            : {}),
          ...(request.maxTokens !== undefined ? { maxOutputTokens: request.maxTokens } : {}),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          ...(request.stopSequences?.length ? { stopSequences: request.stopSequences } : {}),
          // The agent loop runs tools (with approvals) and retries; the SDK must do neither.
          automaticFunctionCalling: { disable: true },
          automaticContinuation: false,
          thinkingConfig: { includeThoughts: true },
          abortSignal: controller.signal,
        },
      });
      for await (const chunk of stream) {
        blockedPrompt(chunk);
        const candidate = chunk.candidates?.[0];
        for (const part of candidate?.content?.parts ?? []) {
          const event = toEvent(part, fixes);
          if (event) yield event;
        }
        if (candidate?.finishReason) finishReason = candidate.finishReason;
        // Each chunk may carry the running count; the last one holds the turn's total.
        if (chunk.usageMetadata) usage = toUsage(chunk.usageMetadata);
      }
      // A stop that lands after the last chunk must still read as a stop, not a finished turn.
      if (request.signal.aborted) throw new ProviderError('The request to Gemini was cancelled.', false);
    } catch (error) {
      throw this.providerError(error, request.signal);
    } finally {
      request.signal.removeEventListener('abort', onAbort);
      controller.abort();
    }
    yield { type: 'done', ...(finishReason ? { finishReason } : {}), ...(usage ? { usage } : {}) };
  }

  /** A ProviderError whose message is safe to show and log: never the key. */
  private providerError(error: unknown, signal?: AbortSignal): ProviderError {
    if (error instanceof ProviderError) return error;
    if (signal?.aborted) return new ProviderError('The request to Gemini was cancelled.', false);
    const redact = (s: string) => (this.apiKey ? s.split(this.apiKey).join('[redacted]') : s);
    if (error instanceof ApiError) {
      const { message, status, reason } = googleError(error.message);
      return new ProviderError(
        redact(describeStatus(error.status, status, reason, message)),
        isRetryableStatus(error.status),
        error.status,
      );
    }
    const cause = error instanceof Error ? errorCode(error) : undefined;
    const text = error instanceof Error ? error.message : String(error);
    if (cause || /fetch failed|network|socket|terminated/i.test(text)) {
      const host = safeHost(this.baseUrl);
      // No "(CODE)." tail: the agent loop wraps this in its retry notice, which read "(ENOTFOUND).);".
      return new ProviderError(
        redact(`Could not reach the Gemini API at ${host} — ${unreachableReason(error)}`),
        true,
      );
    }
    return new ProviderError(redact(`Gemini request failed: ${text}`), false);
  }
}

/** Gemini's usageMetadata as ours: thinking tokens are generated output too (and billed as such). */
function toUsage(u: GenerateContentResponseUsageMetadata): TokenUsage {
  const input = u.promptTokenCount ?? 0;
  const output = (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0);
  return { inputTokens: input, outputTokens: output, totalTokens: u.totalTokenCount ?? input + output };
}

function callingMode(mode: StreamRequest['toolMode']): FunctionCallingConfigMode {
  if (mode === 'none') return FunctionCallingConfigMode.NONE;
  return mode === 'required' ? FunctionCallingConfigMode.ANY : FunctionCallingConfigMode.AUTO;
}

/** The provider-neutral history as Gemini contents. */
export function toGeminiContents(messages: readonly ModelMessage[]): Content[] {
  const contents: Content[] = [];
  for (const message of messages) {
    const parts = message.parts.map(toPart);
    if (message.role === 'model') {
      const first = parts.find((p) => p.functionCall);
      if (first && !first.thoughtSignature) first.thoughtSignature = SKIP_SIGNATURE;
    }
    // Gemini rejects a content with no parts.
    if (parts.length) contents.push({ role: message.role, parts });
  }
  return contents;
}

function toPart(part: ModelPart): Part {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'image':
      return { inlineData: { mimeType: part.mimeType, data: part.data } };
    case 'file':
      // Gemini reads PDFs natively and every other text as plain text (it names no JSON or code types).
      return {
        inlineData: {
          mimeType: part.mimeType === 'application/pdf' ? part.mimeType : 'text/plain',
          data: part.data,
        },
      };
    case 'function_call':
      return {
        functionCall: { id: part.id, name: part.name, args: part.args },
        ...(part.signature ? { thoughtSignature: part.signature } : {}),
      };
    case 'function_response':
      return {
        functionResponse: { id: part.id, name: part.name, response: responseBody(part.output, part.isError) },
      };
  }
}

/** Google's convention: `output` for a result, `error` for a failure; always a JSON object. */
function responseBody(output: unknown, isError: boolean): Record<string, unknown> {
  if (isError)
    return isRecord(output) && 'error' in output
      ? { error: output.error }
      : { error: output ?? 'the tool failed' };
  return { output: output ?? null };
}

function toEvent(part: Part, fixes: ReadonlyMap<string, ArgFix[]>): ProviderEvent | undefined {
  if (part.functionCall) {
    const name = part.functionCall.name ?? '';
    const raw = part.functionCall.args ?? {};
    const f = fixes.get(name);
    return {
      type: 'function_call',
      // Older models send no ids; the loop needs one to pair the response with the call.
      id: part.functionCall.id || `call_${randomUUID()}`,
      name,
      args: f ? applyArgFixes(raw, f) : raw,
      ...(part.thoughtSignature ? { signature: part.thoughtSignature } : {}),
    };
  }
  if (typeof part.text === 'string' && part.text.length)
    return { type: part.thought ? 'thinking' : 'text', text: part.text };
  return undefined;
}

/** A prompt refused before any candidate: say so instead of ending silently. */
function blockedPrompt(chunk: GenerateContentResponse): void {
  const reason = chunk.promptFeedback?.blockReason;
  if (reason && !chunk.candidates?.length) {
    throw new ProviderError(
      `Gemini refused the prompt (${reason}${chunk.promptFeedback?.blockReasonMessage ? `: ${chunk.promptFeedback.blockReasonMessage}` : ''}).`,
      false,
    );
  }
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function describeStatus(
  code: number,
  status: string | undefined,
  reason: string | undefined,
  message: string,
): string {
  const head = `Gemini API error ${code}${status ? ` ${status}` : ''}`;
  if (reason === 'API_KEY_INVALID' || /API key not valid/i.test(message))
    return `${head}: the API key was rejected (${message}) Check the key in Settings.`;
  switch (code) {
    case 401:
    case 403:
      return `${head}: not allowed (${message}) Check the API key and that the Generative Language API is enabled for it.`;
    case 404:
      return `${head}: not found (${message}) Check the model name.`;
    case 429:
      return `${head}: rate limit or quota exceeded (${message})`;
    default:
      return `${head}: ${message}`;
  }
}

/** The SDK puts the response body (Google's `{ error: {...} }` JSON) in the message. */
function googleError(text: string): { message: string; status?: string; reason?: string } {
  const start = text.indexOf('{');
  try {
    const body: unknown = JSON.parse(start >= 0 ? text.slice(start) : text);
    const err = isRecord(body) && isRecord(body.error) ? body.error : undefined;
    if (err) {
      const details = Array.isArray(err.details) ? err.details : [];
      const info = details.find(
        (d): d is Record<string, unknown> => isRecord(d) && typeof d.reason === 'string',
      );
      return {
        message: (typeof err.message === 'string' ? err.message : text).slice(0, 500),
        ...(typeof err.status === 'string' ? { status: err.status } : {}),
        ...(info ? { reason: String(info.reason) } : {}),
      };
    }
  } catch {
    // Not JSON (a proxy's HTML page): show it as it came.
  }
  return { message: text.slice(0, 500) };
}

function errorCode(error: Error): string | undefined {
  const cause = error.cause;
  return isRecord(cause) && typeof cause.code === 'string' ? cause.code : undefined;
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the configured address';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
