import type { ApprovalChoice, ProviderId, ToolApprovalRequest } from './chat.js';
import type { JsonSchema } from './mcp-types.js';

/**
 * Everything that waits on a person: tool approvals (chat), and what servers ask of the
 * host (sampling, elicitation). Each has an id, a deadline, and one of the responses below.
 */

/** One message of a sampling request as the review panel shows (and may edit) it. */
export interface SamplingMessageView {
  role: 'user' | 'assistant';
  /** Text, images and audio as the server sent them; tool use/results summarised as text. */
  content: SamplingContentView[];
}

export type SamplingContentView =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'other'; summary: string };

/**
 * The tool call a server was running when it asked us something: its request reaches the
 * person where that call is (the chat thread, the Tools view), and stopping the call settles
 * it. Absent when nothing of ours was in flight on that server.
 */
export interface RequestOrigin {
  callId: string;
  toolName: string;
  /** Set when the call came from a chat run. */
  conversationId?: string;
}

/** A server's sampling/createMessage, waiting for a person's review. */
export interface SamplingRequestView {
  kind: 'sampling';
  id: string;
  serverId: string;
  createdAt: number;
  expiresAt: number;
  /** `request`: approve/edit before the model runs; `reply`: see/edit the model's answer before it returns. */
  stage: 'request' | 'reply';
  messages: SamplingMessageView[];
  systemPrompt?: string;
  modelPreferences?: {
    hints?: { name?: string }[];
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  includeContext?: string;
  /** Tools the server offers the model inside this request. */
  tools?: { name: string; description?: string; inputSchema?: JsonSchema }[];
  /** The model the host would use, from the hints and the configured providers. */
  suggestedModel: { provider: ProviderId; model: string };
  /** At the reply stage: what the model answered. */
  reply?: { model: string; text: string; stopReason?: string };
  /** The tool call that caused it, when one was in flight. */
  origin?: RequestOrigin;
}

/** A server's elicitation/create, waiting for a person. */
export interface ElicitationRequestView {
  kind: 'elicitation';
  id: string;
  serverId: string;
  createdAt: number;
  expiresAt: number;
  mode: 'form' | 'url';
  message: string;
  /** Form mode: the (validated) restricted JSON schema to render. */
  requestedSchema?: JsonSchema;
  /** URL mode: the full URL and the domain a person must see before consenting. */
  url?: string;
  domain?: string;
  /** Things a person should know, e.g. a field that looks like it asks for a password. */
  warnings: string[];
  /** The tool call that caused it, when one was in flight. */
  origin?: RequestOrigin;
}

export type PendingRequest = ToolApprovalRequest | SamplingRequestView | ElicitationRequestView;

/** How a person may consent to sampling for one server. */
export type SamplingConsent = 'ask' | 'session' | 'always' | 'never';

/** A person's answer to one pending request. */
export type PendingResponse =
  | { kind: 'tool-approval'; choice: ApprovalChoice }
  | {
      kind: 'sampling';
      action: 'approve' | 'deny';
      /** Edited messages (request stage) replace the server's. */
      messages?: SamplingMessageView[];
      systemPrompt?: string;
      model?: { provider: ProviderId; model: string };
      /** Remember the decision for this server. */
      remember?: Exclude<SamplingConsent, 'ask'>;
      /** Reply stage: the edited answer text. */
      replyText?: string;
      /** Skip reviewing replies from this server from now on. */
      skipReplyReview?: boolean;
    }
  | { kind: 'elicitation'; action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
