import { z } from 'zod';
import type { InstallOutcome, InstallPreview, RegistryPage, ResolvedInstall } from '../../domain/registry.js';
import { serverNameSchema } from '../../domain/server-config.js';
import { empty, typed } from './channel-kit.js';

/** Longest pasted server.json (real ones are a few KB). */
const MAX_SERVER_JSON = 256 * 1024;
/** Longest install link accepted from the renderer (the host applies its own, smaller, caps too). */
const MAX_LINK = 64 * 1024;

const previewId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not a preview id');
const optionId = z.string().regex(/^(?:package|remote)-\d{1,3}$|^entry$/, 'not an install option');
/** Values by input id; a secret goes to the keychain and never comes back. */
const values = z.record(z.string().max(200), z.string().max(10_000));

/** Browsing an MCP registry, previewing a server.json or an install link, and installing from it. */
export const registryChannels = {
  /** One page of the configured registry's servers matching `search` (all when empty). */
  'registry.search': {
    request: z
      .object({
        search: z.string().max(200).optional(),
        cursor: z.string().max(1000).optional(),
        limit: z.number().int().min(1).max(100).optional(),
      })
      .strict(),
    response: typed<RegistryPage>(),
  },
  /** Preview a pasted server.json, or fetch one from the configured registry by name (latest or a version). */
  'registry.preview': {
    request: z.union([
      z.object({ serverJson: z.string().min(1).max(MAX_SERVER_JSON) }).strict(),
      z.object({ name: z.string().min(3).max(200), version: z.string().min(1).max(255).optional() }).strict(),
    ]),
    response: typed<InstallPreview>(),
  },
  /** The entry an option would save with these values, and what is still missing. */
  'registry.resolve': {
    request: z.object({ previewId, option: optionId, values, name: serverNameSchema }).strict(),
    response: typed<ResolvedInstall>(),
  },
  /** Install an option of a preview under `name`: secrets to the keychain first, then the entry. */
  'registry.install': {
    request: z.object({ previewId, option: optionId, values, name: serverNameSchema }).strict(),
    response: typed<InstallOutcome>(),
  },
  /** Preview an `mcp-desk://install?…` link; nothing is installed until `registry.install`. */
  'deepLinks.preview': {
    request: z.object({ url: z.string().min(1).max(MAX_LINK) }).strict(),
    response: typed<InstallPreview>(),
  },
  /** Install links the OS handed the app that no window has shown yet (taking empties the list). */
  'deepLinks.take': { request: empty, response: typed<string[]>() },
} as const;
