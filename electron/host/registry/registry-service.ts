import { randomUUID } from 'node:crypto';
import type {
  InstallOutcome,
  InstallPreview,
  RegistryPage,
  ResolvedInstall,
} from '../../../shared/domain/registry.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import { storeUnlessNoKeychain } from '../util/no-keychain.js';
import { HostFailure } from '../util/errors.js';
import { downloadBundle, type BundleInspector, type DownloadOptions } from './bundle-download.js';
import { parseDeepLink } from './deep-link.js';
import { planOptions, type OptionPlan } from './install-options.js';
import { linkEntryProblem, planLinkEntry } from './link-entry.js';
import type { RegistryClient } from './registry-client.js';
import { resolvePlan } from './resolve-install.js';
import { checkServerJson } from './server-schema.js';

/** The parts of the host this service installs into. */
export interface InstallTarget {
  list(): ServerSummary[];
  add(name: string, config: ServerConfig): Promise<ServerSummary>;
}

/** Where a secret of an install goes (ServerSecrets: the Redactor learns it first, then the keychain). */
export interface SecretSink {
  set(name: string, value: string): Promise<unknown>;
}

/** What RegistryService needs. */
export interface RegistryServiceDeps {
  client: RegistryClient;
  servers: InstallTarget;
  secrets: SecretSink;
  /** The configured registry's base URL (the app setting, or an override). */
  registryUrl: () => string;
  /** The bundle flow; absent until it is wired in, and then mcpb packages say so. */
  bundles?: BundleInspector | undefined;
  /** Where mcpb downloads go (`<data>/bundles/.downloads`). */
  downloadsDir: string;
  download?: DownloadOptions;
  /** Told just before an install's entry is saved and started (a dry run pins what it saw). */
  beforeSave?: (previewId: string, serverId: string, entry: ServerConfig) => void;
}

interface HeldPreview {
  preview: InstallPreview;
  plans: Map<string, OptionPlan>;
  at: number;
}

/** Previews kept at once, and for how long: enough for a person to fill a form. */
const MAX_PREVIEWS = 50;
const PREVIEW_TTL_MS = 60 * 60_000;

/**
 * Registry entries and install links, end to end: search the configured registry, preview a
 * server.json (pasted, fetched, or behind a link) with the options it offers, resolve an
 * option with a person's values, and install it — secrets to the keychain first, then the
 * entry. Nothing is ever installed without an explicit `install` naming a preview.
 */
export class RegistryService {
  private readonly previews = new Map<string, HeldPreview>();

  constructor(private readonly deps: RegistryServiceDeps) {}

  /** One page of the configured registry. */
  search(req: { search?: string; cursor?: string; limit?: number }): Promise<RegistryPage> {
    return this.deps.client.search(this.deps.registryUrl(), req);
  }

  /** Preview a pasted server.json, or the registry's server.json of `name`. */
  async preview(
    req: { serverJson: string } | { name: string; version?: string },
    source: InstallPreview['source'] = 'serverJson' in req ? 'server-json' : 'registry',
  ): Promise<InstallPreview> {
    let doc: unknown;
    if ('serverJson' in req) {
      try {
        doc = JSON.parse(req.serverJson);
      } catch (error) {
        throw new HostFailure('server_json_invalid', `This is not valid JSON: ${(error as Error).message}`);
      }
    } else {
      doc = await this.deps.client.serverJson(this.deps.registryUrl(), req.name, req.version);
    }
    return this.hold(this.previewOf(doc, source));
  }

  /** Preview an install link (an entry of its own, or a server of the configured registry). */
  async previewLink(url: string): Promise<InstallPreview> {
    const link = parseDeepLink(url);
    if (link.kind === 'registry')
      return this.preview(
        link.version ? { name: link.name, version: link.version } : { name: link.name },
        'link',
      );
    const problem = linkEntryProblem(link.config);
    if (problem) throw new HostFailure('link_invalid', `This install link cannot be used: ${problem}`);
    const { plan, warnings } = planLinkEntry(link.config);
    const preview: InstallPreview = {
      previewId: '',
      source: 'link',
      validation: { ok: true, problems: [] },
      server: { name: link.name },
      suggestedName: this.freeName(link.name),
      options: [plan.view],
      warnings,
    };
    return this.hold({ preview, plans: new Map([[plan.view.id, plan]]), at: Date.now() });
  }

  /** The entry an option makes with these values. */
  resolve(req: {
    previewId: string;
    option: string;
    values: Record<string, string>;
    name: string;
  }): ResolvedInstall {
    return resolvePlan(this.plan(req.previewId, req.option), req.values, req.name).view;
  }

  /**
   * The entry an option makes with these values, for a dry run (secrets stay references, and
   * the dry run leaves them empty). Throws what is still missing or wrong.
   */
  entryForDryRun(req: { previewId: string; option: string; values: Record<string, string>; name: string }): {
    serverName: string;
    config: ServerConfig;
  } {
    const plan = this.plan(req.previewId, req.option);
    if (plan.bundle)
      throw new HostFailure(
        'invalid_request',
        'a bundle is dry-run from its own preview, once it is downloaded',
      );
    const resolved = resolvePlan(plan, req.values, req.name);
    const { missing, problems } = resolved.view;
    if (missing.length) throw new HostFailure('input_missing', `Fill in ${missing.join(', ')} first`);
    if (problems.length || !resolved.config)
      throw new HostFailure('config_invalid', problems.join('; ') || 'the entry is not valid');
    return { serverName: req.name, config: resolved.config };
  }

  /** Install an option: a bundle goes to the bundle flow; anything else becomes a server. */
  async install(req: {
    previewId: string;
    option: string;
    values: Record<string, string>;
    name: string;
  }): Promise<InstallOutcome> {
    const plan = this.plan(req.previewId, req.option);
    if (plan.bundle) return this.installBundle(plan.bundle);
    if (!plan.view.available)
      throw new HostFailure('server_json_invalid', plan.view.reason ?? 'this option cannot be installed');
    const resolved = resolvePlan(plan, req.values, req.name);
    const { missing, problems } = resolved.view;
    if (missing.length)
      throw new HostFailure('input_missing', `Fill in ${missing.join(', ')} first`, {
        fields: Object.fromEntries(missing.map((m) => [m, 'required'])),
      });
    if (problems.length || !resolved.config)
      throw new HostFailure('config_invalid', problems.join('; ') || 'the entry is not valid');
    if (this.deps.servers.list().some((s) => s.id === req.name))
      throw new HostFailure(
        'server_exists',
        `A server named "${req.name}" already exists; pick another name`,
      );
    // Secrets first: the entry is saved referring to a value that is not there only where there
    // is no keychain to hold it, and then the outcome says so.
    const notStored = await storeUnlessNoKeychain(resolved.secrets, (name, value) =>
      this.deps.secrets.set(name, value),
    );
    this.deps.beforeSave?.(req.previewId, req.name, resolved.config);
    const server = await this.deps.servers.add(req.name, resolved.config);
    this.previews.delete(req.previewId);
    return { kind: 'server', server, ...(notStored ? { notStored } : {}) };
  }

  private async installBundle(bundle: { url: string; sha256: string }): Promise<InstallOutcome> {
    const inspector = this.deps.bundles;
    if (!inspector) throw new HostFailure('unavailable', 'bundle install not available here');
    const path = await downloadBundle(bundle.url, bundle.sha256, this.deps.downloadsDir, this.deps.download);
    return { kind: 'bundle', path, preview: await inspector.inspectFile(path) };
  }

  private previewOf(doc: unknown, source: InstallPreview['source']): HeldPreview {
    const check = checkServerJson(doc);
    const d = (doc ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const name = str(d.name) ?? 'unnamed';
    const repo = d.repository as Record<string, unknown> | undefined;
    const server: InstallPreview['server'] = { name };
    for (const [key, value] of [
      ['title', str(d.title)],
      ['description', str(d.description)],
      ['version', str(d.version)],
      ['websiteUrl', str(d.websiteUrl)],
      ['repositoryUrl', str(repo?.url)],
    ] as const)
      if (value !== undefined) server[key] = value;
    const plans = check.ok ? planOptions(check.value, this.deps.bundles !== undefined) : [];
    const warnings =
      check.ok && plans.length === 0 ? ['This server.json lists no packages and no remotes to install.'] : [];
    const preview: InstallPreview = {
      previewId: '',
      source,
      validation: check.ok ? { ok: true, problems: [] } : { ok: false, problems: check.problems },
      server,
      suggestedName: this.freeName(name.split('/').pop() ?? name),
      options: plans.map((p) => p.view),
      warnings,
    };
    return { preview, plans: new Map(plans.map((p) => [p.view.id, p])), at: Date.now() };
  }

  private hold(held: HeldPreview): InstallPreview {
    const now = Date.now();
    for (const [id, p] of this.previews) if (now - p.at > PREVIEW_TTL_MS) this.previews.delete(id);
    while (this.previews.size >= MAX_PREVIEWS) {
      const oldest = this.previews.keys().next().value;
      if (oldest === undefined) break;
      this.previews.delete(oldest);
    }
    const previewId = randomUUID().replace(/-/g, '');
    held.preview.previewId = previewId;
    this.previews.set(previewId, held);
    return held.preview;
  }

  private plan(previewId: string, option: string): OptionPlan {
    const held = this.previews.get(previewId);
    if (!held || Date.now() - held.at > PREVIEW_TTL_MS)
      throw new HostFailure('preview_expired', 'This install preview has expired; open it again');
    const plan = held.plans.get(option);
    if (!plan) throw new HostFailure('invalid_request', `The preview has no option "${option}"`);
    return plan;
  }

  /** A server name that is valid and not taken: the registry name's last part, cleaned. */
  private freeName(raw: string): string {
    const base =
      raw
        .replace(/[^A-Za-z0-9 _.-]+/g, '-')
        .replace(/^[^A-Za-z0-9]+/, '')
        .slice(0, 58) || 'server';
    const taken = new Set(this.deps.servers.list().map((s) => s.id));
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
    return name;
  }
}
