import { isRecord } from '../../../schema/json-schema-refs.js';

/**
 * The way back from what a provider could declare to what the MCP server asked for: the
 * converter records an `ArgFix` wherever it had to change a value's shape (JSON text, enum
 * text), and the model's arguments are put through these before the tool is called.
 */

/** A location in the arguments: property names, `null` standing for every array element. */
export type ArgPath = (string | null)[];

/** How to turn one argument the model sent back into what the tool's schema wants. */
export type ArgFix =
  | { path: ArgPath; kind: 'json'; expect: 'object' | 'any' }
  | { path: ArgPath; kind: 'enum'; values: Record<string, unknown> };

/** Turn the model's arguments into the values the tool expects (JSON text parsed, enum text mapped back). */
export function applyArgFixes(
  args: Record<string, unknown>,
  fixes: readonly ArgFix[],
): Record<string, unknown> {
  let out: unknown = args;
  for (const fix of fixes) out = applyAt(out, fix.path, fix);
  return isRecord(out) ? out : args;
}

function applyAt(value: unknown, path: ArgPath, fix: ArgFix): unknown {
  if (path.length === 0) return fixValue(value, fix);
  const [head, ...rest] = path;
  if (head === null) return Array.isArray(value) ? value.map((v) => applyAt(v, rest, fix)) : value;
  if (isRecord(value) && head !== undefined && Object.hasOwn(value, head))
    return { ...value, [head]: applyAt(value[head], rest, fix) };
  return value;
}

function fixValue(value: unknown, fix: ArgFix): unknown {
  if (typeof value !== 'string') return value;
  if (fix.kind === 'enum') return Object.hasOwn(fix.values, value) ? fix.values[value] : value;
  try {
    const parsed: unknown = JSON.parse(value);
    return fix.expect === 'any' || isRecord(parsed) ? parsed : value;
  } catch {
    return value;
  }
}
