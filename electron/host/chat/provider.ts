import type { TokenUsage } from '../../../shared/domain/metrics.js';
import type { JsonSchema } from '../../../shared/domain/mcp-types.js';

/**
 * The provider-neutral conversation the agent loop keeps, and the interface every model
 * provider implements. Providers translate this to their wire format and back; the loop
 * never sees provider types.
 */

/** A part of a message in the loop's history. */
export type ModelPart =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: string }
  /** A document the person attached (PDF or text), base64; each provider sends it as its own kind of part. */
  | { type: 'file'; name: string; mimeType: string; data: string }
  /** The model's request to run a tool; `signature` round-trips opaque provider state (Gemini thought signatures). */
  | { type: 'function_call'; id: string; name: string; args: Record<string, unknown>; signature?: string }
  /** A tool's outcome going back to the model; `isError` results are sent as errors. */
  | { type: 'function_response'; id: string; name: string; output: unknown; isError: boolean };

export interface ModelMessage {
  role: 'user' | 'model';
  parts: ModelPart[];
}

/** A tool as offered to the model: already qualified; schema as MCP sent it. */
export interface ModelTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

export interface StreamRequest {
  model: string;
  system?: string;
  messages: ModelMessage[];
  tools: ModelTool[];
  /** `none` forbids tool calls (the best-effort answer after max turns); `required` demands one (sampling toolChoice). */
  toolMode?: 'auto' | 'none' | 'required';
  /** Generation limits a sampling request asks for; absent means the provider's defaults. */
  maxTokens?: number;
  temperature?: number;
  stopSequences?: string[];
  signal: AbortSignal;
}

/** What a provider streams back for one model turn. */
export type ProviderEvent =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'function_call'; id: string; name: string; args: Record<string, unknown>; signature?: string }
  /** `usage` is the provider's own count for the turn, when it sent one. */
  | { type: 'done'; finishReason?: string; usage?: TokenUsage };

/** A failure talking to the model; `retryable` marks transient ones (429, 5xx, network). */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** How texts are embedded: what they are for (some APIs embed queries and documents differently). */
export interface EmbedOptions {
  /** "query": a search's text; "document" (default): what is searched. */
  purpose?: 'query' | 'document';
  signal?: AbortSignal;
}

export interface ChatProvider {
  readonly id: 'gemini' | 'openai';
  /** How many function declarations one request may carry. */
  readonly maxTools: number;
  listModels(signal?: AbortSignal): Promise<string[]>;
  /** Stream one model turn. Throws ProviderError; stops promptly when `signal` aborts. */
  stream(request: StreamRequest): AsyncIterable<ProviderEvent>;
  /** The embedding model used when settings name none. */
  readonly defaultEmbeddingModel: string;
  /** One vector per text, in order (tool selection's semantic ranking). Throws ProviderError. */
  embed(texts: readonly string[], model: string, options?: EmbedOptions): Promise<number[][]>;
}
