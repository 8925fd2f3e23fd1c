import { z } from 'zod';
import type { DryRunReport } from '../../domain/dry-run.js';
import { typed } from './channel-kit.js';

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not an id');

/** Which arriving server to dry-run: named by the preview that holds it, never by its command line. */
export const dryRunRequestSchema = z.union([
  z.object({ source: z.literal('bundle'), stagingId: id }).strict(),
  z
    .object({
      source: z.literal('registry'),
      previewId: id,
      option: z.string().regex(/^(?:package|remote)-\d{1,3}$|^entry$/, 'not an install option'),
      values: z.record(z.string().max(200), z.string().max(10_000)),
      name: z.string().min(1).max(64),
    })
    .strict(),
  z
    .object({
      source: z.literal('import'),
      scanId: z.string().min(1).max(100),
      key: z.string().min(1).max(200),
    })
    .strict(),
  // Pasted JSON has no preview on the host: the request carries the text `servers.import` will get.
  z
    .object({
      source: z.literal('paste'),
      json: z.string().min(1).max(2_000_000),
      name: z.string().min(1).max(200),
    })
    .strict(),
]);

/** A dry-run request (see dryRunRequestSchema). */
export type DryRunRequest = z.infer<typeof dryRunRequestSchema>;

/** Running a server that arrives from outside once in the dry-run sandbox, before it is trusted. */
export const dryRunChannels = {
  /**
   * Start the server of a bundle, registry/link or import preview in the dry-run sandbox (no
   * network, no roots, no secrets, read-only but a temporary folder), list what it offers, run
   * the integrity checks and report what it tried. Installing it afterwards pins the tools seen.
   */
  'dryRun.run': { request: dryRunRequestSchema, response: typed<DryRunReport>() },
} as const;
