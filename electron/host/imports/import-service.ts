import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import type { ImportFile, ImportHost, ImportHostId } from '../../../shared/domain/imports.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import type {
  ImportApplyResult,
  ImportedServer,
  ImportScanResult,
} from '../../../shared/ipc/channels/import-channels.js';
import type { ImportResult } from '../../../shared/ipc/channels/server-channels.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { ConfigEntry } from '../config/config-document.js';
import { IMPORTERS } from '../importers/index.js';
import {
  ImportFileError,
  type CandidateFile,
  type HostImporter,
  type ImportContext,
} from '../importers/importer.js';
import type { SecretsNotStored } from '../../../shared/domain/server-secrets.js';
import { storeUnlessNoKeychain } from '../util/no-keychain.js';
import type { ServerSecrets } from '../stores/server-secrets.js';
import type { Disposable } from '../util/disposable.js';
import { HostFailure, toHostError } from '../util/errors.js';
import type { Redactor } from '../util/redact.js';
import { prepareCandidate, type CandidateScope, type PreparedCandidate } from './import-candidates.js';
import { importPasted, pastedEntry, type ImportTarget } from './pasted-import.js';
import type { MovedSecret } from './move-secrets.js';

/** What the import service is built from. */
export interface ImportServiceDeps {
  host: ImportTarget;
  /** Where moved secrets are stored (the keychain, through the one write path). */
  secrets: ServerSecrets;
  redactor: Redactor;
  audit?: AuditLog;
  /** The hosts read (all of them by default; tests pass their own). */
  importers?: readonly HostImporter[];
  /** Home, environment and platform (this process's by default, so HOME=/tmp/x works). */
  context?: () => Omit<ImportContext, 'projectDir'>;
  /** How long a scan's preview (and the literal values it holds) can still be applied. */
  scanTtlMs?: number;
  /** Told for each candidate just before it is saved and started (a dry run pins what it saw). */
  beforeSave?: (scanId: string, key: string, serverId: string, entry: ServerConfig) => void;
  /** Told for each pasted entry just before it is saved (a dry run of the paste pins what it saw). */
  beforePastedSave?: (serverId: string, entry: ServerConfig) => void;
}

/** How to apply a scan. */
export interface ApplyOptions {
  /** Start the added servers (default true; the CLI only saves them). */
  start?: boolean;
  /** Skip a candidate that launches like a server already here or one added before it in this apply. */
  skipDuplicates?: boolean;
  /** Only say what would happen: nothing is stored or saved, and the scan stays usable. */
  dryRun?: boolean;
}

interface KeptScan {
  at: number;
  order: string[];
  prepared: Map<string, PreparedCandidate>;
}

/** A config file larger than this is not a config file. */
const MAX_FILE_BYTES = 20 * 1024 * 1024;
const MAX_SCANS = 4;

/**
 * Finds other MCP hosts' config files on this machine, previews their servers as they would be
 * saved, and imports the person's pick. Literal secrets never leave the host: the preview shows
 * references, the values wait in the kept scan until apply stores them in the keychain (or the
 * scan expires). Nothing is ever written to another host's files.
 */
export class ImportService implements Disposable {
  private readonly scans = new Map<string, KeptScan>();
  private readonly importers: readonly HostImporter[];

  constructor(private readonly deps: ImportServiceDeps) {
    this.importers = deps.importers ?? IMPORTERS;
  }

  /** Read every host's files (user ones, and those of each project folder) into a preview. */
  async scan(projectDirs: readonly string[] = []): Promise<ImportScanResult> {
    this.expire();
    const ctx = this.deps.context?.() ?? processContext();
    const existing = new Map(this.deps.host.list().map((s) => [s.id, this.deps.host.serverConfig(s.id)]));
    const secrets = await this.deps.secrets.state();
    const scope: CandidateScope = {
      existing,
      takenNames: new Set(existing.keys()),
      takenSecrets: new Set(secrets.list.map((s) => s.name)),
      seenLaunch: new Map(),
      seenNames: new Map(),
    };
    const kept: KeptScan = { at: Date.now(), order: [], prepared: new Map() };
    const hosts: ImportHost[] = [];
    const lookedAt: ImportScanResult['lookedAt'] = [];
    for (const importer of this.importers) {
      const files = filesOf(importer, ctx, projectDirs);
      lookedAt.push({ id: importer.id, label: importer.label, paths: files.map((f) => f.path) });
      const found: ImportFile[] = [];
      for (const [fileIndex, file] of files.entries()) {
        const text = await readConfig(file.path);
        if (text === null) continue;
        if (typeof text !== 'string') {
          found.push({ path: file.path, scope: file.scope, error: text.error, servers: [] });
          continue;
        }
        const parsed = parseFile(importer, text, file);
        if (!Array.isArray(parsed)) {
          found.push({ path: file.path, scope: file.scope, error: parsed.error, servers: [] });
          continue;
        }
        const servers = [];
        for (const [i, server] of parsed.entries()) {
          const key = `${importer.id}/${fileIndex}/${i}`;
          const at = { key, hostId: importer.id, label: importer.label, file: file.path };
          const prepared = await prepareCandidate(server, at, scope);
          // Learned now: an error or log line that ever quoted the value is scrubbed.
          for (const m of prepared.moved) this.deps.redactor.addSecret(m.value);
          kept.prepared.set(key, prepared);
          kept.order.push(key);
          servers.push(prepared.candidate);
        }
        found.push({ path: file.path, scope: file.scope, servers });
      }
      if (found.length > 0) hosts.push({ id: importer.id, label: importer.label, files: found });
    }
    const scanId = randomUUID();
    this.scans.set(scanId, kept);
    while (this.scans.size > MAX_SCANS) this.scans.delete(this.scans.keys().next().value ?? '');
    // The preview says so when the secrets it would move have no keychain to go to.
    return {
      scanId,
      hosts,
      lookedAt,
      ...(secrets.keychainError ? { keychainError: secrets.keychainError } : {}),
    };
  }

  /**
   * Import the chosen candidates of a scan: their moved secrets into the keychain first, then
   * the servers in one save. A name taken since the scan is skipped, never overwritten. The
   * scan (and the values it held) is dropped afterwards.
   */
  async apply(scanId: string, keys: readonly string[], opts: ApplyOptions = {}): Promise<ImportApplyResult> {
    this.expire();
    const kept = this.scans.get(scanId);
    if (!kept)
      throw new HostFailure('scan_expired', 'This import preview is out of date: look for servers again.');
    if (!opts.dryRun) this.scans.delete(scanId);
    const chosen = new Set(keys);
    const result: ImportApplyResult = { added: [], skipped: [] };
    const here = new Set(this.deps.host.list().map((s) => s.id));
    const launches = new Set<string>();
    const storedNames = new Set((await this.deps.secrets.list()).filter((s) => s.set).map((s) => s.name));
    const ready: PreparedCandidate[] = [];
    // Candidates added with their moved secrets unset, there being no keychain to hold them.
    const notStored = new Map<string, SecretsNotStored>();
    let noKeychain: SecretsNotStored | undefined;
    for (const key of keys)
      if (!kept.prepared.has(key)) result.skipped.push({ key, name: key, reason: 'not in this scan' });
    for (const key of kept.order) {
      const p = kept.prepared.get(key);
      if (!p || !chosen.has(key)) continue;
      const skip = (reason: string) => result.skipped.push({ key, name: p.candidate.name, reason });
      const sameAsEarlier = p.candidate.conflicts.find((c) => c.kind !== 'same-name' && launches.has(c.with));
      if (!p.config) skip(p.candidate.error ?? 'not a valid server entry');
      else if (here.has(p.candidate.name))
        skip(`a server named "${p.candidate.name}" was added since the scan`);
      else if (opts.skipDuplicates && p.duplicateOf)
        skip(`already here as "${p.duplicateOf}" (same ${launchWord(p)})`);
      else if (opts.skipDuplicates && sameAsEarlier)
        skip(`same ${launchWord(p)} as ${sameAsEarlier.with}, imported just before`);
      else if (p.moved.some((m) => storedNames.has(m.name)))
        skip('a secret of the same name was stored since the scan: look for servers again');
      else {
        const stored = opts.dryRun ? true : await this.storeSecrets(p.moved, noKeychain);
        if (typeof stored === 'string') skip(stored);
        else {
          if (stored !== true) {
            noKeychain = stored;
            notStored.set(p.candidate.key, stored);
          }
          ready.push(p);
          launches.add(`${p.candidate.name} (from ${this.labelOf(p.hostId)})`);
        }
      }
    }
    if (opts.dryRun)
      return { added: ready.map((p) => importedServer(p, storedNames)), skipped: result.skipped };
    for (const p of ready)
      this.deps.beforeSave?.(scanId, p.candidate.key, p.candidate.name, p.config as ServerConfig);
    const entries: ConfigEntry[] = ready.map((p) => ({
      name: p.candidate.name,
      ok: true,
      config: p.config as ServerConfig,
    }));
    const saved =
      entries.length > 0
        ? await this.deps.host.importEntries(entries, { start: opts.start !== false })
        : { added: [], skipped: [] };
    const nowSet = new Set((await this.deps.secrets.list()).filter((s) => s.set).map((s) => s.name));
    for (const p of ready) {
      const why = saved.skipped.find((s) => s.name === p.candidate.name);
      if (why) {
        result.skipped.push({ key: p.candidate.key, name: p.candidate.name, reason: why.reason });
        continue;
      }
      result.added.push(importedServer(p, nowSet, notStored.get(p.candidate.key)));
    }
    this.deps.audit?.append({
      kind: 'import',
      action: 'imported',
      details: {
        hosts: [...new Set(result.added.map((a) => a.host))],
        files: [...new Set(result.added.map((a) => a.file))],
        added: result.added.map((a) => ({ name: a.name, host: a.host, sourceName: a.sourceName })),
        skipped: result.skipped.map((s) => s.name),
        secretsMoved: result.added.flatMap((a) =>
          a.secrets.filter((s) => s.kind === 'moved' && !a.unset.includes(s.name)).map((s) => s.name),
        ),
        secretsNotStored: result.added.flatMap((a) => a.notStored?.names ?? []),
        secretsToFill: result.added.flatMap((a) => a.unset),
      },
    });
    return result;
  }

  /**
   * One candidate of a kept scan as it would be saved (literal secrets already references),
   * for a dry run. Throws when the scan expired or the candidate is not a valid entry.
   */
  entryForDryRun(scanId: string, key: string): { serverName: string; config: ServerConfig } {
    this.expire();
    const p = this.scans.get(scanId)?.prepared.get(key);
    if (!p)
      throw new HostFailure('scan_expired', 'This import preview is out of date: look for servers again.');
    if (!p.config) throw new HostFailure('config_invalid', p.candidate.error ?? 'not a valid server entry');
    return { serverName: p.candidate.name, config: p.config };
  }

  /** One server of pasted JSON as `servers.import` would save it, for a dry run. */
  pastedEntryForDryRun(json: string, name: string): { serverName: string; config: ServerConfig } {
    return pastedEntry(json, name, this.deps.redactor);
  }

  /** `servers.import` (pasted JSON): the same literal-secret moving, then the registry's import. */
  importPasted(json: string): Promise<ImportResult> {
    return importPasted(json, this.deps);
  }

  dispose(): void {
    this.scans.clear();
  }

  /**
   * Store a candidate's moved secrets: true; which were left unset where there is no keychain
   * (`known` once an earlier candidate found none); or why not (a stored one is removed again).
   */
  private async storeSecrets(
    moved: readonly MovedSecret[],
    known: SecretsNotStored | undefined,
  ): Promise<true | SecretsNotStored | string> {
    if (moved.length === 0) return true;
    if (known) return { names: moved.map((m) => m.name), reason: known.reason };
    const done: string[] = [];
    try {
      const unstored = await storeUnlessNoKeychain(moved, async (name, value) => {
        await this.deps.secrets.set(name, value);
        done.push(name);
      });
      return unstored ?? true;
    } catch (error) {
      for (const name of done) await this.deps.secrets.delete(name).catch(() => undefined);
      return `its secrets could not be stored in the keychain: ${toHostError(error, this.deps.redactor).message}`;
    }
  }

  private labelOf(id: ImportHostId): string {
    return this.importers.find((i) => i.id === id)?.label ?? id;
  }

  private expire(): void {
    const ttl = this.deps.scanTtlMs ?? 30 * 60_000;
    for (const [id, scan] of this.scans) if (Date.now() - scan.at > ttl) this.scans.delete(id);
  }
}

function importedServer(
  p: PreparedCandidate,
  set: ReadonlySet<string>,
  notStored?: SecretsNotStored,
): ImportedServer {
  return {
    ...(notStored ? { notStored } : {}),
    key: p.candidate.key,
    name: p.candidate.name,
    host: p.hostId,
    sourceName: p.candidate.sourceName,
    file: p.file,
    secrets: p.candidate.secrets,
    unset: p.candidate.secrets.filter((s) => !set.has(s.name)).map((s) => s.name),
  };
}

function launchWord(p: PreparedCandidate): string {
  return p.config && 'url' in p.config ? 'URL' : 'command';
}

/** This process's home, environment and platform. */
function processContext(): Omit<ImportContext, 'projectDir'> {
  return { platform: process.platform, home: homedir(), env: process.env };
}

/** The host's user files, then each project folder's own, each path once. */
function filesOf(
  importer: HostImporter,
  ctx: Omit<ImportContext, 'projectDir'>,
  projectDirs: readonly string[],
): CandidateFile[] {
  const seen = new Set<string>();
  const out: CandidateFile[] = [];
  for (const dir of [undefined, ...projectDirs]) {
    for (const f of importer.files(dir === undefined ? ctx : { ...ctx, projectDir: dir })) {
      if (seen.has(f.path)) continue;
      seen.add(f.path);
      out.push(f);
    }
  }
  return out;
}

/** The file's text, null when there is no such file, or why it cannot be read. */
async function readConfig(path: string): Promise<string | null | { error: string }> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return { error: 'not a file' };
    if (info.size > MAX_FILE_BYTES) return { error: `too large for a config file (${info.size} bytes)` };
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return { error: `cannot be read (${code ?? (error as Error).message})` };
  }
}

/** The file's servers, or why it is not this host's format (one line: a parser's code frame could quote a secret). */
function parseFile(
  importer: HostImporter,
  text: string,
  file: CandidateFile,
): ReturnType<HostImporter['parse']> | { error: string } {
  try {
    return importer.parse(text, file);
  } catch (error) {
    const message = ((error as Error).message || String(error)).split('\n')[0]?.slice(0, 300) ?? '';
    return { error: error instanceof ImportFileError ? message : `could not be read: ${message}` };
  }
}
