import type { JsonSchema } from '../../../../shared/domain/mcp-types.js';
import { inlineRefs, isRecord } from '../../schema/json-schema-refs.js';
import type { ModelMessage, ModelTool } from '../provider.js';

/** A message in OpenAI's chat format. */
export type OpenAiMessage =
  | { role: 'system'; content: string }
  | {
      role: 'user';
      content: string | OpenAiUserPart[];
    }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAiToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** One part of a user message's content: text, an image, or a file (PDF) sent inline. */
export type OpenAiUserPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { filename: string; file_data: string } };

export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * The provider-neutral history in OpenAI's shape: function responses become `tool` messages
 * right after the assistant message that called them (the API requires that order), any
 * other user content follows them.
 */
export function toOpenAiMessages(
  system: string | undefined,
  messages: readonly ModelMessage[],
): OpenAiMessage[] {
  const out: OpenAiMessage[] = system ? [{ role: 'system', content: system }] : [];
  for (const m of messages) {
    if (m.role === 'model') {
      const text = m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      const toolCalls = m.parts.flatMap((p): OpenAiToolCall[] =>
        p.type === 'function_call'
          ? [
              {
                id: p.id,
                type: 'function',
                function: { name: p.name, arguments: JSON.stringify(p.args ?? {}) },
              },
            ]
          : [],
      );
      if (text || toolCalls.length)
        out.push({
          role: 'assistant',
          content: text || null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        });
      continue;
    }
    const content: OpenAiUserPart[] = [];
    for (const p of m.parts) {
      if (p.type === 'function_response') {
        const body =
          typeof p.output === 'string'
            ? p.output
            : JSON.stringify(p.isError && !isRecord(p.output) ? { error: p.output } : (p.output ?? null));
        out.push({ role: 'tool', tool_call_id: p.id, content: body });
      } else if (p.type === 'text') content.push({ type: 'text', text: p.text });
      else if (p.type === 'image')
        content.push({ type: 'image_url', image_url: { url: `data:${p.mimeType};base64,${p.data}` } });
      else if (p.type === 'file')
        // OpenAI's file part takes PDFs; other documents are text, which every server reads as text.
        content.push(
          p.mimeType === 'application/pdf'
            ? { type: 'file', file: { filename: p.name, file_data: `data:${p.mimeType};base64,${p.data}` } }
            : { type: 'text', text: Buffer.from(p.data, 'base64').toString('utf8') },
        );
    }
    if (content.length === 0) continue;
    const onlyText = content.every((c) => c.type === 'text');
    out.push({
      role: 'user',
      content: onlyText ? content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') : content,
    });
  }
  return out;
}

/** A function tool in OpenAI's `tools` array. */
type OpenAiTool = {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
};

/** By identity: the tool offer keeps its tool objects until a list or a switch changes (ToolOfferCache). */
const openAiTools = new WeakMap<ModelTool, OpenAiTool>();

/** A tool as OpenAI declares it; JSON Schema passes through with refs inlined. Converted once per tool. */
export function toOpenAiTool(tool: ModelTool): OpenAiTool {
  let converted = openAiTools.get(tool);
  if (!converted) {
    converted = {
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        parameters: toOpenAiParameters(tool.inputSchema),
      },
    };
    openAiTools.set(tool, converted);
  }
  return converted;
}

/** Local servers often cannot follow `$ref` (llama.cpp grammars, some Ollama models): inline them. */
export function toOpenAiParameters(schema: JsonSchema | undefined): JsonSchema {
  const { schema: plain } = inlineRefs(isRecord(schema) ? schema : {});
  return { ...plain, type: 'object', properties: isRecord(plain.properties) ? plain.properties : {} };
}
