import { readFile } from 'node:fs/promises';
import { parseEnv } from 'node:util';
import type {
  ImportCandidate,
  ImportConflict,
  ImportHostId,
  ImportSecret,
} from '../../../shared/domain/imports.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import { parseEntry } from '../config/config-document.js';
import type { ParsedServer } from '../importers/importer.js';
import { freeName, launchIdentity, validName } from './import-names.js';
import { moveLiteralSecrets, type MovedSecret } from './move-secrets.js';

/**
 * One server of another host's file turned into what the import view shows and what apply
 * saves: validated, named, checked against what is already here, its literal secrets taken out.
 */

/** A candidate with what only the host keeps: the entry to save and the literal values it held. */
export interface PreparedCandidate {
  candidate: ImportCandidate;
  hostId: ImportHostId;
  file: string;
  /** The entry to save (secrets as references); absent when the entry is invalid. */
  config?: ServerConfig;
  /** The literal secrets taken out, values included: they never leave the host but to the keychain. */
  moved: MovedSecret[];
  /** The existing server this one launches the same way, if any. */
  duplicateOf?: string;
}

/** What a scan has seen so far: the servers here and the earlier candidates, for names and conflicts. */
export interface CandidateScope {
  /** The servers already configured, by name. */
  existing: ReadonlyMap<string, ServerConfig | undefined>;
  /** Server names in use (existing plus earlier candidates); gains each new one. */
  takenNames: Set<string>;
  /** Secret names in use (referenced or stored); gains each moved one. */
  takenSecrets: Set<string>;
  /** Earlier candidates by launch identity and by source name, as "name (from Host)". */
  seenLaunch: Map<string, string>;
  seenNames: Map<string, string>;
}

/** A ParsedServer that may carry VS Code's `envFile` (an absolute path), added by some importers. */
type WithEnvFile = ParsedServer & { envFile?: unknown };

/** Prepare one parsed server; never throws (a bad entry becomes a candidate with its error). */
export async function prepareCandidate(
  parsed: WithEnvFile,
  at: { key: string; hostId: ImportHostId; label: string; file: string },
  scope: CandidateScope,
): Promise<PreparedCandidate> {
  const notCarried = [...parsed.notCarried];
  const entry = await withEnvFile(parsed, notCarried);
  const base = validName(parsed.name);
  const name = freeName(base, at.hostId, scope.takenNames);
  const conflicts: ImportConflict[] = [];
  if (scope.existing.has(base)) conflicts.push({ kind: 'same-name', with: base });
  else if (scope.seenNames.has(base))
    conflicts.push({ kind: 'same-name', with: scope.seenNames.get(base) ?? base });
  const parsedEntry = parseEntry(name, entry);
  const shown = {
    key: at.key,
    sourceName: parsed.name,
    ...(parsed.group !== undefined ? { group: parsed.group } : {}),
    name,
    notCarried,
  };
  if (!parsedEntry.ok) {
    return {
      candidate: { ...shown, error: parsedEntry.error, secrets: [], conflicts },
      hostId: at.hostId,
      file: at.file,
      moved: [],
    };
  }
  const { config, moved } = moveLiteralSecrets(name, parsedEntry.config, scope.takenSecrets);
  const secrets: ImportSecret[] = [
    ...moved.map((m): ImportSecret => ({ name: m.name, from: m.from, kind: 'moved' })),
    ...parsed.inputs.map((i): ImportSecret => ({
      name: i.secretName,
      from: i.from,
      kind: 'to-fill',
      ...(i.description !== undefined ? { description: i.description } : {}),
    })),
  ];
  const identity = launchIdentity(config);
  let duplicateOf: string | undefined;
  for (const [existingName, existingConfig] of scope.existing) {
    if (!existingConfig) continue;
    const other = launchIdentity(existingConfig);
    if (other.kind === identity.kind && other.key === identity.key) {
      conflicts.push({ kind: identity.kind, with: existingName });
      duplicateOf ??= existingName;
    }
  }
  const label = `${name} (from ${at.label})`;
  const earlier = scope.seenLaunch.get(`${identity.kind}:${identity.key}`);
  if (earlier) conflicts.push({ kind: identity.kind, with: earlier });
  else scope.seenLaunch.set(`${identity.kind}:${identity.key}`, label);
  scope.takenNames.add(name);
  if (!scope.seenNames.has(base)) scope.seenNames.set(base, label);
  return {
    candidate: {
      ...shown,
      ...(duplicateOf !== undefined ? { alreadyHere: duplicateOf } : {}),
      config,
      secrets,
      conflicts,
    },
    hostId: at.hostId,
    file: at.file,
    config,
    moved,
    ...(duplicateOf !== undefined ? { duplicateOf } : {}),
  };
}

/**
 * The entry with its `envFile`'s variables merged under its own `env` (the entry's own values
 * win, as in VS Code). An unreadable file is a note, not a failure: the rest still imports.
 */
async function withEnvFile(parsed: WithEnvFile, notCarried: string[]): Promise<unknown> {
  const path = parsed.envFile;
  const entry = parsed.entry;
  if (typeof path !== 'string' || entry === null || typeof entry !== 'object' || Array.isArray(entry))
    return entry;
  let fileEnv: Record<string, string>;
  try {
    const parsedEnv = parseEnv(await readFile(path, 'utf8'));
    fileEnv = Object.fromEntries(
      Object.entries(parsedEnv).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    notCarried.push(
      `Its envFile (${path}) could not be read${code ? ` (${code})` : ''}, so its variables are not carried over.`,
    );
    return entry;
  }
  const own = (entry as { env?: unknown }).env;
  const ownEnv = own !== null && typeof own === 'object' && !Array.isArray(own) ? own : {};
  return { ...entry, env: { ...fileEnv, ...ownEnv } };
}
