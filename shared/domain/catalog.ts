import type { Prompt, Resource, ResourceTemplate, Tool } from './mcp-types.js';
import type { ToolFlow } from './flows.js';
import type { ToolTrust } from './tool-trust.js';

/** A tool together with the server that offers it. */
export interface CatalogTool {
  serverId: string;
  tool: Tool;
  enabled: boolean;
  /** Its pin and warnings (absent where the host does not track them, e.g. old snapshots). */
  trust?: ToolTrust;
  /** Its flow labels (source, sensitive, sink) and why; absent where the host does not compute them. */
  flow?: ToolFlow;
}
export interface CatalogResource {
  serverId: string;
  resource: Resource;
}
export interface CatalogTemplate {
  serverId: string;
  template: ResourceTemplate;
}
export interface CatalogPrompt {
  serverId: string;
  prompt: Prompt;
}

/** Everything every connected server offers, in one snapshot. */
export interface CatalogSnapshot {
  tools: CatalogTool[];
  resources: CatalogResource[];
  templates: CatalogTemplate[];
  prompts: CatalogPrompt[];
}
