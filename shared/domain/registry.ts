import type { BundlePreview } from './bundles.js';
import type { SecretsNotStored } from './server-secrets.js';
import type { ServerSummary } from './server-state.js';

/**
 * Installing servers listed in an MCP registry (a `server.json`) and from `mcp-desk://install`
 * links: what the renderer sees of a registry listing and of an install preview. A preview is
 * the whole decision a person makes before anything is written: which way to run the server,
 * the values it needs, and the entry as it will be saved. Secret values never cross back out:
 * the entry shows `${secret:NAME}` references only.
 */

/** The official registry, used until a person sets another one. */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** The scheme of install links (`mcp-desk://install?…`). */
export const DEEP_LINK_SCHEME = 'mcp-desk';

/** One server in a registry listing. */
export interface RegistryEntry {
  /** The registry name, reverse-DNS with one slash (`io.github.user/weather`). */
  name: string;
  title?: string;
  description: string;
  version: string;
  /** The package kinds it offers (`npm`, `pypi`, `oci`, `mcpb`…), once each. */
  packageTypes: string[];
  /** The remote transports it offers (`streamable-http`, `sse`), once each. */
  remoteTypes: string[];
  /** The registry's own status (`active`, `deprecated`…), when it says. */
  status?: string;
  repositoryUrl?: string;
}

/** One page of a registry search. */
export interface RegistryPage {
  entries: RegistryEntry[];
  /** Pass back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
  /** The registry that answered (origin and path). */
  registryUrl: string;
}

/** How a value of an install preview is entered. */
export type InstallInputFormat = 'string' | 'number' | 'boolean' | 'filepath';

/** One value a person fills in before installing (an env variable, a header, an argument, a URL variable). */
export interface InstallInput {
  /** Names the value in `values` of `registry.resolve` and `registry.install`. */
  id: string;
  /** What it is called where it goes (`GITHUB_TOKEN`, `Authorization`, `--port`, `tenant_id`). */
  label: string;
  /** Where the value goes. */
  target: 'env' | 'header' | 'argument' | 'url';
  description?: string;
  required: boolean;
  /** Stored in the keychain; the saved entry refers to it as `${secret:secretName}`. */
  secret: boolean;
  format: InstallInputFormat;
  default?: string;
  placeholder?: string;
  /** The value must be one of these (a select). */
  choices?: string[];
  /** Several values, one per line (a repeated argument). */
  repeated?: boolean;
  /** A value the link or server.json already carries (a literal secret moved to the keychain); empty keeps it. */
  preset?: boolean;
}

/** One way to run the server: one of its packages, one of its remotes, or a link's own entry. */
export interface InstallOption {
  /** `package-N`, `remote-N` or `entry`. */
  id: string;
  kind: 'package' | 'remote' | 'entry';
  /** One line for the picker ("npm package @scope/name 1.2.3", "Remote (Streamable HTTP)"). */
  label: string;
  /** `npm`, `pypi`, `oci`, `mcpb`… for a package. */
  registryType?: string;
  transport: string;
  /** False when this app cannot run it; `reason` says why in plain words. */
  available: boolean;
  reason?: string;
  /** Installing downloads a bundle and continues in the bundle install flow. */
  bundle?: boolean;
  inputs: InstallInput[];
}

/** What `registry.preview` and `deepLinks.preview` show before anything is installed. */
export interface InstallPreview {
  /** Names this preview in `registry.resolve` and `registry.install`; kept by the host a while. */
  previewId: string;
  source: 'registry' | 'server-json' | 'link';
  /** Whether the server.json passed the published schema (a link's own entry: our config schema). */
  validation: { ok: boolean; problems: string[] };
  server: {
    /** The registry name, or the link's name. */
    name: string;
    title?: string;
    description?: string;
    version?: string;
    repositoryUrl?: string;
    websiteUrl?: string;
  };
  /** A free name for the local server (the last part of the registry name). */
  suggestedName: string;
  options: InstallOption[];
  /** Things to know before confirming, one plain sentence each (e.g. a literal secret in a link). */
  warnings: string[];
}

/** What `registry.resolve` answers: the entry as it would be saved with these values. */
export interface ResolvedInstall {
  /** Our mcpServers entry; secrets as `${secret:NAME}`. Absent when a required value is missing. */
  entry?: unknown;
  /** Labels of required values still empty. */
  missing: string[];
  /** Values that are given but wrong (not a number, not one of the choices), one sentence each. */
  problems: string[];
  /** The keychain names the install stores. */
  secrets: string[];
}

/** What `registry.install` did: a server was added, or a bundle was downloaded for the bundle flow. */
export type InstallOutcome =
  | {
      kind: 'server';
      server: ServerSummary;
      /** Its secrets that could not be stored (no OS keychain): the entry was added with them unset. */
      notStored?: SecretsNotStored;
    }
  | {
      kind: 'bundle';
      /** The downloaded, checksum-verified .mcpb file. */
      path: string;
      /** The bundle flow's own preview of it (staged; installed with bundles.install). */
      preview: BundlePreview;
    };
