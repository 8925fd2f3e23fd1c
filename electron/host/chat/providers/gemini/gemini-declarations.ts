import type { FunctionDeclaration } from '@google/genai';
import type { ModelTool } from '../../provider.js';
import { toGeminiParameters, type ArgFix } from './gemini-schema.js';

/** A turn's tools as Gemini declares them, with the argument fixes to undo on the model's calls. */
export interface GeminiDeclarations {
  declarations: FunctionDeclaration[];
  fixes: Map<string, ArgFix[]>;
}

/**
 * Conversions by identity. The chat's tool offer hands out the same array (and the same tool
 * objects) until a list, a server or an enabled-tool switch changes (ToolOfferCache), so every
 * turn of a run and every later run reuse the work; a changed list brings new objects, and the
 * old entries are collected with them.
 */
const byOffer = new WeakMap<readonly ModelTool[], GeminiDeclarations>();
const byTool = new WeakMap<ModelTool, { declaration: FunctionDeclaration; fixes: ArgFix[] }>();

/** Gemini's function declarations for `tools`, converted once per offer and per tool. */
export function toGeminiDeclarations(tools: readonly ModelTool[]): GeminiDeclarations {
  const cached = byOffer.get(tools);
  if (cached) return cached;
  const fixes = new Map<string, ArgFix[]>();
  const declarations = tools.map((tool) => {
    let one = byTool.get(tool);
    if (!one) {
      const { parameters, argFixes } = toGeminiParameters(tool.inputSchema);
      one = {
        declaration: {
          name: tool.name,
          description: tool.description,
          ...(parameters ? { parameters } : {}),
        },
        fixes: argFixes,
      };
      byTool.set(tool, one);
    }
    if (one.fixes.length) fixes.set(tool.name, one.fixes);
    return one.declaration;
  });
  const result = { declarations, fixes };
  byOffer.set(tools, result);
  return result;
}
