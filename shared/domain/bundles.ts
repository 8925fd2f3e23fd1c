import { z } from 'zod';
import type { HostError } from '../ipc/host-error.js';
import type { SecretsNotStored } from './server-secrets.js';

/**
 * MCP Bundles (.mcpb): what the install preview shows before anything is installed, and what
 * an installed bundle looks like in lists. Sensitive values never appear here: a preview says
 * only whether one is already stored, and values cross renderer → host, never back.
 */

/** How a bundle's server runs (the manifest's `server.type`). */
export type BundleServerType = 'node' | 'python' | 'binary' | 'uv';

/** The bundle file's signature as the mcpb package verified it. */
export interface BundleSignature {
  status: 'signed' | 'self-signed' | 'unsigned';
  /** Who signed it (the certificate's common name), when signed. */
  publisher?: string;
  issuer?: string;
}

/** Whether the bundle can run here; each failed check is said in words. */
export interface BundleCompatibility {
  ok: boolean;
  /** One sentence per failed check ("needs Node >=22, this app runs 20.19.0"). */
  problems: string[];
  /** The platforms the manifest names (absent: any). */
  platforms?: string[];
  /** The runtime version ranges the manifest names. */
  runtimes?: { node?: string; python?: string };
}

/** One `user_config` field, as the install form shows it. */
export interface BundleConfigField {
  key: string;
  type: 'string' | 'number' | 'boolean' | 'directory' | 'file';
  title: string;
  description: string;
  required: boolean;
  /** The manifest's default with ${HOME} and the other folder variables resolved. */
  default?: BundleValue;
  multiple: boolean;
  sensitive: boolean;
  min?: number;
  max?: number;
  /** Update: the value the installed version was given (non-sensitive fields only). */
  previous?: BundleValue;
  /** Update, sensitive fields: a value is stored and is kept unless a new one is entered. */
  stored?: boolean;
}

/** A tool or prompt the manifest declares (the server may offer more or fewer). */
export interface BundleDeclared {
  name: string;
  description?: string;
}

/** Everything the install dialog (and `mcp-desk install`) shows before installing. */
export interface BundlePreview {
  /** The staged, unpacked copy this preview describes: pass it to bundles.install or bundles.discard. */
  stagingId: string;
  fileName: string;
  /** The manifest's `name`. */
  name: string;
  displayName: string;
  version: string;
  description: string;
  author: { name: string; email?: string; url?: string };
  homepage?: string;
  license?: string;
  manifestVersion: string;
  serverType: BundleServerType;
  tools: BundleDeclared[];
  /** The server makes more tools at run time than the manifest lists. */
  toolsGenerated: boolean;
  prompts: BundleDeclared[];
  promptsGenerated: boolean;
  signature: BundleSignature;
  compatibility: BundleCompatibility;
  userConfig: BundleConfigField[];
  /** The server entry the bundle will have (the manifest's name, made a valid server name). */
  serverName: string;
  /** The same bundle is installed already: this is an update from that version. */
  installed?: { version: string };
  /** Why it cannot be installed as it stands (a server of that name that is not this bundle). */
  conflict?: string;
  privacyPolicies: string[];
}

/** One value of a `user_config` field. */
export type BundleValue = string | number | boolean | string[];

/** A value as the renderer or `--set` sends it. */
export const bundleValueSchema = z.union([
  z.string().max(10_000),
  z.number(),
  z.boolean(),
  z.array(z.string().max(10_000)).max(100),
]);

/** What an install or update did. */
export interface BundleInstallResult {
  serverId: string;
  name: string;
  version: string;
  /** The version it replaced, for an update. */
  previousVersion?: string;
  /** Its sensitive values that could not be stored (no OS keychain): installed with them unset. */
  notStored?: SecretsNotStored;
}

/** An installed bundle, as `bundles.list` and `mcp-desk install` report it. */
export interface InstalledBundle {
  name: string;
  displayName: string;
  version: string;
  serverId: string;
  serverType: BundleServerType;
  /** ms since the epoch. */
  installedAt: number;
}

/** What a stdio server entry records of the bundle it came from (server-config.ts `bundle`). */
export const bundleRefSchema = z
  .object({
    name: z.string().min(1).max(214),
    version: z.string().min(1).max(64),
    runtime: z.enum(['node', 'python', 'binary', 'uv']),
  })
  .strict();

/** The `bundle` field of an installed bundle's server entry. */
export type BundleRef = z.infer<typeof bundleRefSchema>;

/** A bundle offered from outside the window (opened from the file manager, a deep link). */
export type BundleOffer =
  { kind: 'preview'; preview: BundlePreview } | { kind: 'error'; fileName: string; error: HostError };

/**
 * Largest bundle sent as bytes (browser mode's file input): its base64 must fit the WebSocket
 * bridge's 8 MiB message cap (bridge-server.ts maxPayload) with room for the envelope.
 */
export const MAX_BUNDLE_UPLOAD_BYTES = 5 * 1024 * 1024;

/** Largest .mcpb read from a path (the desktop app, the CLI): the package unpacks in memory. */
export const MAX_BUNDLE_FILE_BYTES = 256 * 1024 * 1024;
