import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { bundleValueSchema, type InstalledBundle } from '../../../shared/domain/bundles.js';

/** What `<bundles>/<folder>/bundle.json` remembers of an install: never a sensitive value. */
const recordSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  version: z.string(),
  serverId: z.string(),
  serverType: z.enum(['node', 'python', 'binary', 'uv']),
  installedAt: z.number(),
  /** The version's folder name under the bundle's folder. */
  versionDir: z.string(),
  /** Non-sensitive values, prefilled on update. */
  values: z.record(z.string(), bundleValueSchema),
  /** Sensitive fields with a keychain value (`server.` + secretNameFor(name, key)). */
  secretKeys: z.array(z.string()),
});

/** One installed bundle's record. */
export type BundleRecord = z.infer<typeof recordSchema>;

const RECORD = 'bundle.json';

/** The record in `folder`, or undefined when there is none (or it does not parse). */
export async function readRecord(folder: string): Promise<BundleRecord | undefined> {
  try {
    const parsed = recordSchema.safeParse(JSON.parse(await readFile(join(folder, RECORD), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Write the record atomically (a half-written file never replaces a good one). */
export async function writeRecord(folder: string, record: BundleRecord): Promise<void> {
  await mkdir(folder, { recursive: true });
  const tmp = join(folder, `${RECORD}.tmp`);
  await writeFile(tmp, `${JSON.stringify(record, null, 2)}\n`);
  await rename(tmp, join(folder, RECORD));
}

/** Every installed bundle's folder and record (staging and unreadable folders skipped). */
export async function readAllRecords(root: string): Promise<{ folder: string; record: BundleRecord }[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  const out: { folder: string; record: BundleRecord }[] = [];
  for (const name of names.filter((n) => !n.startsWith('.')).sort()) {
    const record = await readRecord(join(root, name));
    if (record) out.push({ folder: join(root, name), record });
  }
  return out;
}

/** The record as lists show it. */
export function toInstalled(r: BundleRecord): InstalledBundle {
  return {
    name: r.name,
    displayName: r.displayName,
    version: r.version,
    serverId: r.serverId,
    serverType: r.serverType,
    installedAt: r.installedAt,
  };
}
