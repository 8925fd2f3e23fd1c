/**
 * Arguments for calling a tool without a model in the loop (the conformance client):
 * schema defaults where given, otherwise a plain value of the right type for each
 * required property, so the call is well-formed for the server's validation.
 */
export function sampleArguments(schema: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (schema === null || typeof schema !== 'object') return out;
  const s = schema as { properties?: Record<string, unknown>; required?: unknown };
  const required = Array.isArray(s.required)
    ? s.required.filter((r): r is string => typeof r === 'string')
    : [];
  for (const [name, def] of Object.entries(s.properties ?? {})) {
    const d = (def ?? {}) as Record<string, unknown>;
    if ('default' in d) out[name] = d.default;
    else if (required.includes(name)) out[name] = sampleValue(d);
  }
  return out;
}

function sampleValue(d: Record<string, unknown>): unknown {
  if (Array.isArray(d.enum) && d.enum.length) return d.enum[0];
  const type: unknown = Array.isArray(d.type) ? (d.type as unknown[])[0] : d.type;
  switch (type) {
    case 'number':
    case 'integer':
      return typeof d.minimum === 'number' ? d.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return sampleArguments(d);
    default:
      return 'test';
  }
}
