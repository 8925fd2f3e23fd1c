import { stat, readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { BundleConfigField, BundleServerType, BundleValue } from '../../../shared/domain/bundles.js';
import { serverNameSchema } from '../../../shared/domain/server-config.js';
import { HostFailure } from '../util/errors.js';
import { mcpb, parseManifest, type McpbManifest } from './mcpb-package.js';

/** A staged bundle's manifest, checked: schema, entry point inside the bundle, no host references. */
export interface CheckedManifest {
  manifest: McpbManifest;
  manifestVersion: string;
  serverType: BundleServerType;
}

const MAX_MANIFEST_BYTES = 1024 * 1024;
/** `${secret:…}` and `${env:…}` are MCP Desk's own references; a manifest must not smuggle them in. */
const HOST_REF = /\$\{(secret|env):/;

/** Read and check `<dir>/manifest.json`; throws bundle_invalid with the reason. */
export async function readManifest(dir: string): Promise<CheckedManifest> {
  const file = resolve(dir, 'manifest.json');
  let text: string;
  try {
    if ((await stat(file)).size > MAX_MANIFEST_BYTES)
      throw new HostFailure('bundle_invalid', 'manifest.json is larger than 1 MiB');
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof HostFailure) throw error;
    throw new HostFailure('bundle_invalid', 'not a usable bundle: it has no manifest.json at its top level');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new HostFailure('bundle_invalid', `manifest.json is not valid JSON: ${(error as Error).message}`);
  }
  const { manifest, version } = await parseManifest(raw);
  const refs = JSON.stringify({
    mcp: manifest.server.mcp_config,
    defaults: Object.values(manifest.user_config ?? {}).map((f) => f.default),
  });
  if (HOST_REF.test(refs))
    throw new HostFailure(
      'bundle_invalid',
      'manifest.json uses ${secret:…} or ${env:…}, which would read your keychain or environment: refused',
    );
  await checkEntryPoint(dir, manifest.server.entry_point, manifest.server.type);
  return { manifest, manifestVersion: version, serverType: manifest.server.type };
}

/** The entry point must be a file inside the bundle (a binary may omit `.exe`). */
async function checkEntryPoint(dir: string, entry: string, type: BundleServerType): Promise<void> {
  const target = resolve(dir, entry);
  const rel = relative(dir, target);
  if (!entry || rel.startsWith('..') || isAbsolute(rel))
    throw new HostFailure('bundle_invalid', `the entry point "${entry}" is outside the bundle`);
  const candidates = type === 'binary' ? [target, `${target}.exe`] : [target];
  for (const c of candidates) {
    try {
      if ((await stat(c)).isFile()) return;
    } catch {
      // Try the next candidate.
    }
  }
  throw new HostFailure('bundle_invalid', `the entry point "${entry}" is missing from the bundle`);
}

/** The folder variables a manifest may use (${HOME}, ${DESKTOP}, …), as the package names them. */
export function systemDirs(home: string): Record<string, string> {
  return {
    HOME: home,
    DESKTOP: resolve(home, 'Desktop'),
    DOCUMENTS: resolve(home, 'Documents'),
    DOWNLOADS: resolve(home, 'Downloads'),
  };
}

/** The user_config fields as the form shows them, with defaults' folder variables resolved. */
export async function configFields(
  manifest: McpbManifest,
  dirs: Record<string, string>,
  pathSeparator: string,
): Promise<BundleConfigField[]> {
  const { replaceVariables } = await mcpb();
  const vars = { ...dirs, pathSeparator, '/': pathSeparator };
  return Object.entries(manifest.user_config ?? {}).map(([key, f]) => ({
    key,
    type: f.type,
    title: f.title,
    description: f.description,
    required: f.required === true,
    ...(f.default !== undefined ? { default: replaceVariables(f.default, vars) as BundleValue } : {}),
    multiple: f.multiple === true,
    sensitive: f.sensitive === true,
    ...(f.min !== undefined ? { min: f.min } : {}),
    ...(f.max !== undefined ? { max: f.max } : {}),
  }));
}

/** The manifest's name as a server name: kept when valid, otherwise made valid. */
export function serverNameFor(name: string): string {
  if (serverNameSchema.safeParse(name).success) return name;
  const cleaned = name
    .replace(/[^A-Za-z0-9 _.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64)
    .trim();
  return cleaned || 'bundle';
}

/** A path segment from free text (a version, a name): no separators, no dot-only names. */
export function safeSegment(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9._+-]+/g, '_').slice(0, 64);
  return /^[A-Za-z0-9]/.test(cleaned) ? cleaned : `v${cleaned}`;
}

/** The keychain name (after the `server.` prefix) of one sensitive field. */
export function secretNameFor(bundle: string, key: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_');
  return `mcpb.${clean(bundle)}.${clean(key)}`.slice(0, 90);
}
