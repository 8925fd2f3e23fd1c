import type { GetPromptResult } from '../../../shared/domain/mcp-types.js';

/**
 * The text a prompt expands to, for the composer: each message's text (embedded text
 * resources included), separated by blank lines. Images and audio cannot be typed into a
 * textarea, so they are named rather than dropped silently.
 */
export function promptText(result: GetPromptResult): string {
  const parts: string[] = [];
  for (const { content } of result.messages) {
    switch (content.type) {
      case 'text':
        parts.push(content.text);
        break;
      case 'resource':
        parts.push(
          typeof content.resource.text === 'string'
            ? content.resource.text
            : `[binary resource ${content.resource.uri}]`,
        );
        break;
      case 'resource_link':
        parts.push(content.uri);
        break;
      case 'image':
      case 'audio':
        parts.push(`[${content.type} left out]`);
        break;
    }
  }
  return parts.join('\n\n');
}
