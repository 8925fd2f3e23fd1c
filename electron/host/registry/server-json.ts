/**
 * The parts of a registry `server.json` (the published schema's ServerDetail) that installing
 * reads. These types describe a document that already passed the schema (server-schema.ts); the
 * translator still checks each field it uses, since a registry may serve a newer shape.
 */

/** A value a person may be asked for (the schema's Input). */
export interface Input {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  /** Fixed by the publisher; `{name}` parts are filled from `variables`. */
  value?: string;
  default?: string;
  placeholder?: string;
  choices?: string[];
}

/** An Input whose `value` may name `{variables}`. */
export interface InputWithVariables extends Input {
  variables?: Record<string, Input>;
}

/** An environment variable or a header. */
export interface KeyValueInput extends InputWithVariables {
  name: string;
}

/** A command-line argument: a bare value, or `--flag value`. */
export type Argument =
  | (InputWithVariables & { type: 'positional'; valueHint?: string; isRepeated?: boolean })
  | (InputWithVariables & { type: 'named'; name: string; isRepeated?: boolean });

/** How a package or remote speaks MCP. */
export interface Transport {
  type: string;
  url?: string;
  headers?: KeyValueInput[];
  /** Remotes only: values for `{name}` parts of the url. */
  variables?: Record<string, Input>;
}

/** One installable package. */
export interface Package {
  registryType: string;
  identifier: string;
  version?: string;
  registryBaseUrl?: string;
  fileSha256?: string;
  runtimeHint?: string;
  transport: Transport;
  runtimeArguments?: Argument[];
  packageArguments?: Argument[];
  environmentVariables?: KeyValueInput[];
}

/** The server.json document. */
export interface ServerJson {
  name: string;
  description: string;
  version: string;
  title?: string;
  websiteUrl?: string;
  repository?: { url: string; source: string; subfolder?: string };
  packages?: Package[];
  remotes?: Transport[];
}
