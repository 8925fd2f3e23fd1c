/**
 * Structural copies of the MCP wire types the UI shows. shared/ may import only zod, so
 * these mirror the spec (2025-11-25 / 2026-07-28 schema.md) instead of importing the SDK.
 * They are deliberately open (extra fields pass through) because servers send more than
 * the spec minimum and we must not lose it on the way to the screen.
 */

/** JSON Schema as a server sends it; we never trust its shape. */
export type JsonSchema = { [key: string]: unknown };

/** Optional display annotations on content and resources. */
export interface ContentAnnotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: ContentAnnotations;
}
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
}
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
}

/** The body of a resource: text or base64 blob. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  _meta?: Record<string, unknown>;
}

export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: ContentAnnotations;
}

export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: ContentAnnotations;
}

/** Every content block a tool result or prompt message may carry. */
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

/** A tools/call result, kept in MCP's own shape. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /** Extension data; MCP Apps reads `_meta.ui` (see mcp-apps.ts). */
  _meta?: Record<string, unknown>;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Record<string, unknown>;
}

export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: Record<string, unknown>;
}

/** What the server told us about itself at connect time. */
export interface ServerInfo {
  name: string;
  version: string;
  title?: string;
  /** What the server says it is for (2025-11-25 `Implementation.description`), when it says. */
  description?: string;
  protocolEra: 'legacy' | 'modern';
  protocolVersion?: string;
  instructions?: string;
  capabilities: Record<string, unknown>;
}
