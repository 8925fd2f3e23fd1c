import type * as McpbPackage from '@anthropic-ai/mcpb';
import type { BundleSignature } from '../../../shared/domain/bundles.js';
import { HostFailure } from '../util/errors.js';

/**
 * The one door to Anthropic's `@anthropic-ai/mcpb` package: unpacking (zip-slip guarded by the
 * package), signature verification, manifest schemas and the manifest → launch config helper.
 *
 * Why the package root and a lazy import: `unpackExtension` is exported only from `.`, which
 * also loads the package's CLI prompt helpers (about +90 ms over `./node`, measured on Node 20);
 * loading it on the first bundle rather than at start keeps that off every app launch. The
 * package stays external in our esbuild bundles (a runtime dependency), so nothing of it is
 * inlined; Electron's CommonJS main loads it through require(esm).
 */
type McpbModule = typeof McpbPackage;

/** A manifest as the package's schemas accept it (any supported manifest_version). */
export type McpbManifest = Parameters<McpbModule['getMcpConfigForManifest']>[0]['manifest'];

let loaded: Promise<McpbModule> | undefined;

/** The package, loaded once. */
export function mcpb(): Promise<McpbModule> {
  loaded ??= import('@anthropic-ai/mcpb');
  return loaded;
}

/**
 * Unpack `file` into `dir` with the package's unpackExtension. It reports failures (a path
 * leaving the folder, a broken zip) only through its logger, so its console output is taken
 * for the reason while it runs. The call is synchronous inside (read, unzip, write, no await),
 * so nothing else can log in between.
 */
export async function unpackBundle(file: string, dir: string): Promise<void> {
  const { unpackExtension } = await mcpb();
  const said: string[] = [];
  const original = { error: console.error, log: console.log };
  console.error = (...args: unknown[]) => void said.push(args.map(String).join(' '));
  console.log = () => undefined;
  let promise: Promise<boolean>;
  try {
    promise = unpackExtension({ mcpbPath: file, outputDir: dir, silent: false });
  } finally {
    console.error = original.error;
    console.log = original.log;
  }
  if (await promise) return;
  const reason = (said[0] ?? 'the archive could not be read')
    .replace(/^ERROR: (Failed to unpack extension: )?/, '')
    .replace(/^Path traversal attempt detected: (.*)$/, 'it holds a file whose path leaves its folder ($1)');
  throw new HostFailure('bundle_invalid', `not a usable bundle: ${reason}`);
}

/** The file's signature state (unsigned when there is no signature block or it does not verify). */
export async function verifySignature(file: string): Promise<BundleSignature> {
  const { verifyMcpbFile } = await mcpb();
  const info = await verifyMcpbFile(file);
  return {
    status: info.status,
    ...(info.publisher ? { publisher: info.publisher } : {}),
    ...(info.issuer ? { issuer: info.issuer } : {}),
  };
}

/**
 * Validate parsed manifest.json with the package's schema for its manifest_version (the loose
 * one, which tolerates fields a newer minor version adds). Throws bundle_invalid naming fields.
 */
export async function parseManifest(raw: unknown): Promise<{ manifest: McpbManifest; version: string }> {
  const { MANIFEST_SCHEMAS_LOOSE } = await mcpb();
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const declared = record.manifest_version ?? record.dxt_version;
  const versions = Object.keys(MANIFEST_SCHEMAS_LOOSE);
  if (typeof declared !== 'string' || !versions.includes(declared))
    throw new HostFailure(
      'bundle_invalid',
      `manifest.json: manifest_version ${JSON.stringify(declared ?? null)} is not one this app reads (${versions.join(', ')})`,
    );
  const schema = MANIFEST_SCHEMAS_LOOSE[declared as keyof typeof MANIFEST_SCHEMAS_LOOSE];
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    // All in the message, not details.fields: the file is at fault, not a form field.
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new HostFailure(
      'bundle_invalid',
      `manifest.json is not a valid bundle manifest: ${issues.join('; ')}${parsed.error.issues.length > 5 ? '; …' : ''}`,
    );
  }
  return { manifest: parsed.data as McpbManifest, version: declared };
}

/** The manifest's mcp_config with variables, user values and the platform override applied. */
export async function resolveMcpConfig(options: {
  manifest: McpbManifest;
  extensionPath: string;
  systemDirs: Record<string, string>;
  userConfig: Record<string, string | number | boolean | string[]>;
  pathSeparator: string;
}): Promise<{ command: string; args?: string[]; env?: Record<string, string> } | undefined> {
  const { getMcpConfigForManifest } = await mcpb();
  return getMcpConfigForManifest(options);
}
