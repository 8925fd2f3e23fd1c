import { z } from 'zod';

/**
 * What the conformance runner may hand a client in MCP_CONFORMANCE_CONTEXT (a JSON object):
 * credentials a person would have configured (a pre-registered client, a private key, an
 * enterprise IdP token) and, for some scenarios, the exact tool calls to make. Every field is
 * optional because each scenario sends only what it needs; unknown fields are ignored.
 */
const ToolCallSchema = z.object({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
});

const ContextSchema = z.looseObject({
  name: z.string().optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  /** The issuer the pre-registered client belongs to (0.2.x): its credentials go nowhere else. */
  issuer: z.string().optional(),
  private_key_pem: z.string().optional(),
  signing_algorithm: z.string().optional(),
  idp_client_id: z.string().optional(),
  idp_id_token: z.string().optional(),
  idp_issuer: z.string().optional(),
  idp_token_endpoint: z.string().optional(),
  toolCalls: z.array(ToolCallSchema).optional(),
});

/** The parsed MCP_CONFORMANCE_CONTEXT. */
export type ConformanceContext = z.infer<typeof ContextSchema>;

/** A tool call the scenario asks for, with its exact arguments. */
export type ScenarioToolCall = z.infer<typeof ToolCallSchema>;

/** Parses the runner's context; a missing one is empty, a malformed one is an error that names no value. */
export function parseConformanceContext(raw: string | undefined): ConformanceContext {
  if (!raw) return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('MCP_CONFORMANCE_CONTEXT is not valid JSON');
  }
  const parsed = ContextSchema.safeParse(json);
  // The issue paths only: the values may be secrets.
  if (!parsed.success)
    throw new Error(
      `MCP_CONFORMANCE_CONTEXT has unexpected fields: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`,
    );
  return parsed.data;
}
