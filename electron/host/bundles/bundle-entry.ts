import { sep } from 'node:path';
import type { BundleValue } from '../../../shared/domain/bundles.js';
import type { StdioServerConfig } from '../../../shared/domain/server-config.js';
import { HostFailure } from '../util/errors.js';
import type { CheckedManifest } from './bundle-manifest.js';
import { secretNameFor } from './bundle-manifest.js';
import { resolveMcpConfig } from './mcpb-package.js';

/**
 * The server entry of an installed bundle: the manifest's mcp_config with `${__dirname}`, the
 * folder variables and `${user_config.*}` resolved by the package (platform_overrides too),
 * sensitive values as `${secret:NAME}` references so the file never holds them.
 */
export async function bundleEntry(opts: {
  checked: CheckedManifest;
  dir: string;
  plain: Record<string, BundleValue>;
  /** Sensitive fields that have a value in the keychain (entered now or kept). */
  sensitive: string[];
  systemDirs: Record<string, string>;
  platform?: NodeJS.Platform;
}): Promise<StdioServerConfig> {
  const { manifest, serverType } = opts.checked;
  const userConfig: Record<string, BundleValue> = { ...opts.plain };
  for (const key of opts.sensitive) userConfig[key] = `\${secret:${secretNameFor(manifest.name, key)}}`;
  const resolved = await resolveMcpConfig({
    manifest,
    extensionPath: opts.dir,
    systemDirs: opts.systemDirs,
    userConfig,
    pathSeparator: sep,
  });
  if (!resolved) throw new HostFailure('bundle_values_invalid', 'a required setting has no value');
  let command = resolved.command;
  // The manifest names binaries without an extension; Windows needs it.
  if (serverType === 'binary' && (opts.platform ?? process.platform) === 'win32' && !/\.exe$/i.test(command))
    command += '.exe';
  return {
    command,
    ...(resolved.args?.length ? { args: resolved.args } : {}),
    ...(resolved.env && Object.keys(resolved.env).length ? { env: resolved.env } : {}),
    cwd: opts.dir,
    bundle: {
      name: manifest.name.slice(0, 214),
      version: manifest.version.slice(0, 64),
      runtime: serverType,
    },
  };
}
