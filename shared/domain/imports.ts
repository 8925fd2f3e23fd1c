/**
 * Bringing servers over from other MCP hosts: which hosts we read, and what an import scan
 * shows the person before anything is written. A candidate is shown as it will be saved, so a
 * literal secret found in the other host's file is already a `${secret:NAME}` reference here:
 * the value itself never crosses to the renderer.
 */

/** The hosts whose config files we read, as the CLI (`--from`) and the UI name them. */
export const IMPORT_HOST_IDS = [
  'claude-desktop',
  'claude-code',
  'vscode',
  'cursor',
  'windsurf',
  'gemini-cli',
  'zed',
  'goose',
  'codex',
  'lm-studio',
] as const;

/** One of IMPORT_HOST_IDS. */
export type ImportHostId = (typeof IMPORT_HOST_IDS)[number];

/** The hosts a server can be exported to as a snippet (`mcp-desk export --to`). */
export const EXPORT_FORMATS = ['claude-desktop', 'vscode', 'cursor', 'gemini-cli', 'claude-code'] as const;

/** One of EXPORT_FORMATS. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Where a config file applies: the person's whole account, or one project folder. */
export type ImportScope = 'user' | 'project';

/** A secret the import puts (or asks for) in the keychain. */
export interface ImportSecret {
  /** The `${secret:NAME}` name. */
  name: string;
  /** Where it was in the source entry, e.g. `env.GITHUB_TOKEN` or `headers.Authorization`. */
  from: string;
  /** `moved`: a literal value goes to the keychain on import; `to-fill`: the person enters it (a VS Code input, a Goose env_key). */
  kind: 'moved' | 'to-fill';
  /** What the other host said about it (a VS Code input's description). */
  description?: string;
}

/** Why a candidate may not be what the person wants. */
export interface ImportConflict {
  kind: 'same-name' | 'same-command' | 'same-url';
  /** The existing server it clashes with. */
  with: string;
}

/** One server found in another host's file, previewed as it will be saved. */
export interface ImportCandidate {
  /** Stable within a scan: names the candidate in `imports.apply`. */
  key: string;
  /** Its name in the source file. */
  sourceName: string;
  /** A sub-group of the file (Claude Code's project path), if any. */
  group?: string;
  /** The name it will be saved under (renamed when the source name is taken or invalid). */
  name: string;
  /** The entry as it will be saved (our mcpServers shape), secrets as references; absent when invalid. */
  config?: unknown;
  /** Why it cannot be imported (an invalid entry); absent when it can. */
  error?: string;
  secrets: ImportSecret[];
  conflicts: ImportConflict[];
  /**
   * The server already here that launches exactly like this one (an earlier import of it): the
   * preview says so instead of offering a renamed copy.
   */
  alreadyHere?: string;
  /** What the other host's entry says that we cannot carry over, one sentence each. */
  notCarried: string[];
}

/** One config file of a host. */
export interface ImportFile {
  path: string;
  scope: ImportScope;
  /** Why nothing in this file can be imported (unreadable, not valid JSON/YAML/TOML, wrong shape). */
  error?: string;
  servers: ImportCandidate[];
}

/** A host found on this machine (at least one of its config files exists). */
export interface ImportHost {
  id: ImportHostId;
  /** Human name: "Claude Desktop", "VS Code". */
  label: string;
  files: ImportFile[];
}

/** What `imports.scan` found. */
export interface ImportScan {
  /** Names this scan in `imports.apply` (the host keeps the parsed values, with their secrets). */
  scanId: string;
  hosts: ImportHost[];
}

/** A snippet of our servers for another host (`imports.export`, `mcp-desk export`). */
export interface ExportSnippet {
  format: ExportFormat;
  /** The text to paste (JSON, or a shell command line for Claude Code). */
  text: string;
  /** Where it goes, in plain words ("claude_desktop_config.json, under mcpServers"). */
  target: string;
  /** What will not work there as it is, one sentence each. */
  notes: string[];
  /** Shell commands that add the same servers, one per server (Claude Code's `claude mcp add-json`). */
  commands?: string[];
}
