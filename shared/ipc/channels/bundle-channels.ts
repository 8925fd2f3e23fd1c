import { z } from 'zod';
import {
  bundleValueSchema,
  MAX_BUNDLE_UPLOAD_BYTES,
  type BundleInstallResult,
  type BundleOffer,
  type BundlePreview,
  type InstalledBundle,
} from '../../domain/bundles.js';
import { empty, typed } from './channel-kit.js';

const stagingId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not a staging id');
/** A file name only (what the page knows of a picked file), never a path. */
const fileName = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^/\\]+$/, 'a file name, not a path');

/** MCP Bundles (.mcpb): preview, install or update, discard, list, uninstall. */
export const bundleChannels = {
  /**
   * Unpack a .mcpb into staging and describe it: a local path (the desktop app's drop or file
   * association) or the file's bytes (browser mode's file input, at most MAX_BUNDLE_UPLOAD_BYTES).
   */
  'bundles.inspect': {
    request: z.union([
      z.object({ path: z.string().min(1).max(4096) }).strict(),
      z
        .object({
          fileName,
          base64: z
            .string()
            .max(Math.ceil(MAX_BUNDLE_UPLOAD_BYTES / 3) * 4, 'the bundle is larger than 5 MiB')
            .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64'),
        })
        .strict(),
    ]),
    response: typed<BundlePreview>(),
  },
  /** Install (or update) a staged bundle with its user_config values; sensitive ones go to the keychain only. */
  'bundles.install': {
    request: z.object({ stagingId, values: z.record(z.string().max(200), bundleValueSchema) }).strict(),
    response: typed<BundleInstallResult>(),
  },
  /** Forget a staged preview (Cancel): its unpacked files are removed. */
  'bundles.discard': { request: z.object({ stagingId }).strict(), response: typed<null>() },
  'bundles.list': { request: empty, response: typed<InstalledBundle[]>() },
  /**
   * Bundles offered before a window listened (opened from the file manager at launch), taken
   * once; later ones arrive as `bundles.offered` events.
   */
  'bundles.offers': { request: empty, response: typed<BundleOffer[]>() },
  /** Stop and remove the bundle's server, delete its files and its keychain secrets. */
  'bundles.uninstall': {
    request: z.object({ name: z.string().min(1).max(214) }).strict(),
    response: typed<null>(),
  },
} as const;
