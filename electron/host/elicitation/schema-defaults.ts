/**
 * The values a form would start with: each property's `default` from an elicitation's
 * requestedSchema (SEP-1034). Used to answer headlessly ("accept with defaults") and to
 * pre-fill the form a person sees.
 */
export function schemaDefaults(schema: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (schema === null || typeof schema !== 'object') return out;
  const props = (schema as { properties?: unknown }).properties;
  if (props === null || typeof props !== 'object') return out;
  for (const [name, def] of Object.entries(props as Record<string, unknown>)) {
    if (def !== null && typeof def === 'object' && 'default' in def) {
      out[name] = def.default;
    }
  }
  return out;
}
