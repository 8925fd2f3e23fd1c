import { access, mkdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join, sep } from 'node:path';
import type {
  BundleInstallResult,
  BundleOffer,
  BundlePreview,
  BundleValue,
  InstalledBundle,
} from '../../../shared/domain/bundles.js';
import {
  isStdioConfig,
  type ServerConfig,
  type StdioServerConfig,
} from '../../../shared/domain/server-config.js';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { HostEvents } from '../host-events.js';
import { SERVER_SECRET_PREFIX } from '../stores/server-secrets.js';
import type { SecretsNotStored } from '../../../shared/domain/server-secrets.js';
import { deleteUnlessNoKeychain, storeUnlessNoKeychain } from '../util/no-keychain.js';
import type { SecretStore } from '../stores/secret-store.js';
import type { Disposable } from '../util/disposable.js';
import { HostFailure, toHostError } from '../util/errors.js';
import type { Redactor } from '../util/redact.js';
import { checkCompatibility, type CompatContext } from './bundle-compat.js';
import { bundleEntry } from './bundle-entry.js';
import { configFields, safeSegment, secretNameFor, serverNameFor, systemDirs } from './bundle-manifest.js';
import { readAllRecords, readRecord, toInstalled, writeRecord } from './bundle-records.js';
import { BundleStaging, type StagedBundle } from './bundle-staging.js';
import { checkValues } from './bundle-values.js';

/** The part of the host a bundle install changes: its server entry. */
export interface BundleServers {
  serverConfig(id: string): ServerConfig | undefined;
  add(name: string, config: ServerConfig): Promise<ServerSummary>;
  update(id: string, config: ServerConfig): Promise<ServerSummary>;
}

/** What the bundle service needs. */
export interface BundleServiceDeps {
  /** `<data>/bundles`. */
  dir: string;
  servers: BundleServers;
  /** Stop and remove a server with everything kept about it (permissions, log level). */
  removeServer: (id: string) => Promise<void>;
  /** The keychain; sensitive values go here under the `server.` prefix, nowhere else. */
  secrets: SecretStore;
  redactor: Redactor;
  events: HostEvents;
  audit?: AuditLog;
  /** The platform, Node and PATH compatibility is checked against (this process by default). */
  compat?: Partial<CompatContext>;
  home?: string;
  /**
   * Told just before a staged bundle's entry is saved (and so started): the dry run of that
   * staging pins the tools it saw under the entry's final config (see dry-run/).
   */
  beforeSave?: (stagingId: string, serverId: string, entry: ServerConfig) => void;
}

/** Entry fields a person set on the installed server that an update keeps. */
const KEPT_FIELDS = ['disabled', 'includeTools', 'excludeTools', 'timeout', 'trust', 'sandbox'] as const;

/**
 * MCP Bundles (.mcpb): stage and preview a file, install or update it with the person's
 * user_config values, list and uninstall. The unpacking, signature check, manifest schemas and
 * variable substitution are the `@anthropic-ai/mcpb` package's (see mcpb-package.ts).
 */
export class BundleService implements Disposable {
  private readonly staging: BundleStaging;
  private readonly compat: CompatContext;
  private readonly dirs: Record<string, string>;
  private queue: Promise<unknown> = Promise.resolve();
  /** Offers made before any window asked for them (bundles.offers); after that, events. */
  private unclaimed: BundleOffer[] | undefined = [];

  private constructor(private readonly deps: BundleServiceDeps) {
    this.staging = new BundleStaging(join(deps.dir, '.staging'));
    this.compat = {
      platform: process.platform,
      nodeVersion: process.versions.node,
      path: async () => process.env.PATH ?? '',
      ...deps.compat,
    };
    this.dirs = systemDirs(deps.home ?? homedir());
  }

  /** The service, with whatever an earlier run left in staging removed. */
  static async open(deps: BundleServiceDeps): Promise<BundleService> {
    const service = new BundleService(deps);
    await service.staging.clear();
    return service;
  }

  /**
   * Stage a .mcpb at a local path exactly like a dropped file and describe it. The registry's
   * downloads (checked against their sha256 first) come in here too: keep this signature stable.
   */
  async inspectFile(path: string): Promise<BundlePreview> {
    return this.previewOf(await this.staging.stageFile(path, basename(path)));
  }

  /** Stage a .mcpb sent as base64 (browser mode's file input). */
  async inspectBytes(fileName: string, base64: string): Promise<BundlePreview> {
    return this.previewOf(await this.staging.stageBytes(fileName, Buffer.from(base64, 'base64')));
  }

  /** A .mcpb opened from outside the window: stage it and tell the windows to show its preview. */
  async offerFile(path: string): Promise<void> {
    let offer: BundleOffer;
    try {
      offer = { kind: 'preview', preview: await this.inspectFile(path) };
    } catch (error) {
      offer = { kind: 'error', fileName: basename(path), error: toHostError(error, this.deps.redactor) };
    }
    if (this.unclaimed) this.unclaimed.push(offer);
    else this.deps.events.emit('bundles.offered', offer);
  }

  /** What was offered before a window listened; from now on offers are events. */
  takeOffers(): BundleOffer[] {
    const taken = this.unclaimed ?? [];
    this.unclaimed = undefined;
    return taken;
  }

  /**
   * The entry a staged bundle would run with before anything is entered: its own unpacked
   * folder, defaults for plain settings (empty where there is none), and sensitive ones as
   * references, which a dry run leaves empty.
   */
  async entryForDryRun(stagingId: string): Promise<{ serverName: string; config: StdioServerConfig }> {
    const staged = this.staging.get(stagingId);
    const preview = await this.previewOf(staged);
    const plain: Record<string, BundleValue> = {};
    for (const f of preview.userConfig) if (!f.sensitive) plain[f.key] = f.previous ?? f.default ?? '';
    const config = await bundleEntry({
      checked: staged.checked,
      dir: staged.dir,
      plain,
      sensitive: preview.userConfig.filter((f) => f.sensitive).map((f) => f.key),
      systemDirs: this.dirs,
    });
    return { serverName: preview.serverName, config };
  }

  /** Forget a preview and its staged files. */
  discard(stagingId: string): Promise<void> {
    return this.staging.discard(stagingId);
  }

  /** Install or update a staged bundle (one install at a time). */
  install(stagingId: string, values: Record<string, BundleValue>): Promise<BundleInstallResult> {
    const run = this.queue.then(() => this.installNow(stagingId, values));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Every installed bundle. */
  async list(): Promise<InstalledBundle[]> {
    return (await readAllRecords(this.deps.dir)).map((r) => toInstalled(r.record));
  }

  /** Remove a bundle (by its manifest name or its server's name): server, files and secrets. */
  async uninstall(name: string): Promise<void> {
    const found = (await readAllRecords(this.deps.dir)).find(
      (r) => r.record.name === name || r.record.serverId === name,
    );
    if (!found) throw new HostFailure('bundle_not_found', `no installed bundle named "${name}"`);
    const { record, folder } = found;
    const entry = this.deps.servers.serverConfig(record.serverId);
    if (entry && isStdioConfig(entry) && entry.bundle?.name === record.name)
      await this.deps.removeServer(record.serverId);
    await rm(folder, { recursive: true, force: true });
    for (const key of record.secretKeys)
      await deleteUnlessNoKeychain(() =>
        this.deps.secrets.delete(SERVER_SECRET_PREFIX + secretNameFor(record.name, key)),
      );
    this.deps.audit?.append({
      kind: 'bundle',
      serverId: record.serverId,
      action: 'uninstalled',
      details: { name: record.name, version: record.version },
    });
  }

  /** Remove everything still staged (quit). */
  dispose(): Promise<void> {
    return this.staging.clear();
  }

  private folderOf(name: string): string {
    return join(this.deps.dir, safeSegment(name));
  }

  private async previewOf(staged: StagedBundle): Promise<BundlePreview> {
    const { manifest, manifestVersion, serverType } = staged.checked;
    const record = await readRecord(this.folderOf(manifest.name));
    const serverName = record?.serverId ?? serverNameFor(manifest.name);
    const fields = (await configFields(manifest, this.dirs, sep)).map((f) => {
      if (!record) return f;
      if (f.sensitive) return { ...f, stored: record.secretKeys.includes(f.key) };
      const previous = record.values[f.key];
      return previous !== undefined ? { ...f, previous } : f;
    });
    const existing = this.deps.servers.serverConfig(serverName);
    const ours = existing && isStdioConfig(existing) && existing.bundle?.name === manifest.name;
    const installedVersion =
      record?.version ?? (ours && existing.bundle ? existing.bundle.version : undefined);
    return {
      stagingId: staged.id,
      fileName: staged.fileName,
      name: manifest.name,
      displayName: manifest.display_name ?? manifest.name,
      version: manifest.version,
      description: manifest.description,
      author: manifest.author,
      ...(manifest.homepage ? { homepage: manifest.homepage } : {}),
      ...(manifest.license ? { license: manifest.license } : {}),
      manifestVersion,
      serverType,
      tools: (manifest.tools ?? []).map((t) => ({
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
      })),
      toolsGenerated: manifest.tools_generated === true,
      prompts: (manifest.prompts ?? []).map((p) => ({
        name: p.name,
        ...(p.description ? { description: p.description } : {}),
      })),
      promptsGenerated: manifest.prompts_generated === true,
      signature: staged.signature,
      compatibility: await checkCompatibility(manifest.compatibility, serverType, this.compat),
      userConfig: fields,
      serverName,
      ...(installedVersion ? { installed: { version: installedVersion } } : {}),
      ...(existing && !ours
        ? {
            conflict: `a server named "${serverName}" that is not this bundle already exists: rename or remove it first`,
          }
        : {}),
      privacyPolicies: 'privacy_policies' in manifest ? (manifest.privacy_policies ?? []) : [],
    };
  }

  private async installNow(
    stagingId: string,
    values: Record<string, BundleValue>,
  ): Promise<BundleInstallResult> {
    const staged = this.staging.get(stagingId);
    const preview = await this.previewOf(staged);
    if (!preview.compatibility.ok)
      throw new HostFailure(
        'bundle_incompatible',
        `${preview.displayName} cannot run here: ${preview.compatibility.problems.join('; ')}`,
      );
    if (preview.conflict) throw new HostFailure('server_exists', preview.conflict);
    const { manifest } = staged.checked;
    const folder = this.folderOf(manifest.name);
    const record = await readRecord(folder);
    const checked = checkValues(preview.userConfig, values, new Set(record?.secretKeys ?? []));
    const versionDir = safeSegment(manifest.version);
    const target = join(folder, versionDir);
    // Reinstalling the same version: the old copy moves aside until the new entry is saved.
    const aside = join(folder, `.previous-${stagingId}`);
    const replacing = await exists(target);
    await mkdir(folder, { recursive: true });
    if (replacing) await rename(target, aside);
    await rename(staged.dir, target);
    await this.staging.release(stagingId);
    const newSecrets: string[] = [];
    const serverId = preview.serverName;
    let notStored: SecretsNotStored | undefined;
    try {
      const values = Object.entries(checked.secrets).map(([key, value]) => {
        // Learned before anything can fail, so even an error on the way out is scrubbed.
        this.deps.redactor.addSecret(value);
        return { key, name: secretNameFor(manifest.name, key), value };
      });
      // Without a keychain the entry still refers to them: installed, with those values unset.
      notStored = await storeUnlessNoKeychain(values, async (name, value) => {
        await this.deps.secrets.set(SERVER_SECRET_PREFIX + name, value);
        newSecrets.push(values.find((v) => v.name === name)?.key ?? name);
      });
      const sensitive = [...values.map((v) => v.key), ...checked.kept];
      const entry = await bundleEntry({
        checked: staged.checked,
        dir: target,
        plain: checked.plain,
        sensitive,
        systemDirs: this.dirs,
      });
      const previous = this.deps.servers.serverConfig(serverId);
      this.deps.beforeSave?.(stagingId, serverId, previous ? { ...keptFields(previous), ...entry } : entry);
      if (previous) await this.deps.servers.update(serverId, { ...keptFields(previous), ...entry });
      else await this.deps.servers.add(serverId, entry);
      await writeRecord(folder, {
        name: manifest.name,
        displayName: preview.displayName,
        version: manifest.version,
        serverId,
        serverType: staged.checked.serverType,
        installedAt: Date.now(),
        versionDir,
        values: checked.plain,
        secretKeys: sensitive,
      });
      // The new version runs: the old one's files and the secrets it alone used can go.
      if (record && record.versionDir !== versionDir)
        await rm(join(folder, record.versionDir), { recursive: true, force: true });
      for (const key of record?.secretKeys.filter((k) => !sensitive.includes(k)) ?? [])
        await deleteUnlessNoKeychain(() =>
          this.deps.secrets.delete(SERVER_SECRET_PREFIX + secretNameFor(manifest.name, key)),
        );
    } catch (error) {
      await rm(target, { recursive: true, force: true });
      if (replacing) await rename(aside, target).catch(() => undefined);
      if (!record) {
        for (const key of newSecrets)
          await this.deps.secrets.delete(SERVER_SECRET_PREFIX + secretNameFor(manifest.name, key));
        await rm(folder, { recursive: true, force: true });
      }
      throw error;
    }
    await rm(aside, { recursive: true, force: true });
    this.deps.audit?.append({
      kind: 'bundle',
      serverId,
      action: record ? 'updated' : 'installed',
      details: {
        name: manifest.name,
        version: manifest.version,
        ...(record ? { previousVersion: record.version } : {}),
        signature: staged.signature.status,
        ...(notStored ? { secretsNotStored: notStored.names } : {}),
      },
    });
    return {
      serverId,
      name: manifest.name,
      version: manifest.version,
      ...(record ? { previousVersion: record.version } : {}),
      ...(notStored ? { notStored } : {}),
    };
  }
}

function keptFields(previous: ServerConfig): Partial<StdioServerConfig> {
  const out: Record<string, unknown> = {};
  for (const k of KEPT_FIELDS) {
    const v = (previous as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
