import { z } from 'zod';
import { bundleRefSchema } from './bundles.js';

/**
 * The `mcpServers` entry shape people already have in claude_desktop_config.json
 * (stdio: command/args/env/cwd; remote: url/headers/type), plus MCP Desk's own fields.
 * Parsing is strict per entry so one bad entry can be reported and disabled alone.
 */

const envMap = z.record(z.string(), z.string());

/**
 * A host a sandboxed server may reach through the network proxy: a name (`api.example.com`),
 * a wildcard for its subdomains (`*.example.com`) or an IP literal, each with an optional
 * `:port` (any port when absent). IPv6 literals go in brackets (`[::1]:8080`).
 */
export const networkHostSchema = z
  .string()
  .max(260)
  .regex(
    /^(\*\.)?([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/,
    'a host is a name, *.name or an IP literal, with an optional :port',
  );

/**
 * What a sandboxed stdio server may reach on the network: nothing, only the listed hosts
 * (through the host's proxy) or anything. Anything but `any` implies the sandbox.
 */
export const networkRuleSchema = z.union([
  z.enum(['none', 'any']),
  z.object({ allow: z.array(networkHostSchema).max(200) }).strict(),
]);

/** A server's network rule (see networkRuleSchema). */
export type NetworkRule = z.infer<typeof networkRuleSchema>;

/** Fields every server entry may carry, whatever its transport. */
const commonFields = {
  disabled: z.boolean().optional(),
  includeTools: z.array(z.string().min(1)).optional(),
  excludeTools: z.array(z.string().min(1)).optional(),
  /** Per-request timeout in milliseconds. */
  timeout: z.number().int().min(100).max(3_600_000).optional(),
  trust: z.enum(['untrusted', 'trusted']).optional(),
};

export const stdioServerConfigSchema = z
  .object({
    type: z.literal('stdio').optional(),
    command: z.string().min(1, 'command must not be empty'),
    args: z.array(z.string()).optional(),
    env: envMap.optional(),
    cwd: z.string().min(1).optional(),
    /** Run inside an OS sandbox that sees only the roots plus what the server needs to start. */
    sandbox: z.boolean().optional(),
    /** What the sandboxed server may reach on the network (absent: anything, as before). */
    network: networkRuleSchema.optional(),
    /**
     * MCP Desk's own: the entry runs an installed .mcpb bundle (name, version, runtime). A node
     * bundle's `node` command then runs on the app's own Node (see connection/launch.ts).
     */
    bundle: bundleRefSchema.optional(),
    ...commonFields,
  })
  .strict();

/**
 * OAuth settings of a remote server, all optional: a client registered with the
 * authorization server outside the app (clientId, and clientSecret normally written as
 * `${secret:NAME}`), the scopes to ask for, or a Client ID Metadata Document URL in place
 * of the app's default. Without any of them the SDK uses CIMD or dynamic registration.
 */
export const remoteOAuthSchema = z
  .object({
    clientId: z.string().min(1).max(500).optional(),
    clientSecret: z.string().min(1).max(2000).optional(),
    scope: z.string().min(1).max(2000).optional(),
    clientMetadataUrl: z
      .string()
      .url('clientMetadataUrl must be an absolute URL')
      .refine((u) => /^https:\/\/[^/]+\/.+/i.test(u), 'clientMetadataUrl must be an https URL with a path')
      .optional(),
  })
  .strict()
  .refine((o) => o.clientSecret === undefined || o.clientId !== undefined, {
    message: 'oauth.clientSecret needs oauth.clientId',
    path: ['clientSecret'],
  });

export const remoteServerConfigSchema = z
  .object({
    type: z.enum(['http', 'sse', 'streamable-http']).optional(),
    url: z
      .string()
      .url('url must be an absolute URL')
      .refine((u) => /^https?:\/\//i.test(u), 'url must start with http:// or https://'),
    headers: envMap.optional(),
    oauth: remoteOAuthSchema.optional(),
    ...commonFields,
  })
  .strict();

/** One server entry: stdio when it has a command, remote when it has a url. */
export const serverConfigSchema = z.union([stdioServerConfigSchema, remoteServerConfigSchema]);

export type StdioServerConfig = z.infer<typeof stdioServerConfigSchema>;
export type RemoteServerConfig = z.infer<typeof remoteServerConfigSchema>;
export type RemoteOAuthConfig = z.infer<typeof remoteOAuthSchema>;
export type ServerConfig = StdioServerConfig | RemoteServerConfig;

/** Server names double as ids: they must be stable, printable and short. */
export const serverNameSchema = z
  .string()
  .min(1, 'name must not be empty')
  .max(64, 'name must be at most 64 characters')
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9 _.-]*$/,
    'name may use letters, digits, space, _ . - and must start with a letter or digit',
  );

/** True when the entry runs in the OS sandbox: asked for, or implied by a network rule. */
export function wantsSandbox(config: ServerConfig): boolean {
  if (!isStdioConfig(config)) return false;
  return config.sandbox === true || (config.network !== undefined && config.network !== 'any');
}

/** True when the entry launches a local process. */
export function isStdioConfig(config: ServerConfig): config is StdioServerConfig {
  return 'command' in config;
}
