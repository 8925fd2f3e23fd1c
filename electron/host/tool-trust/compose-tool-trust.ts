import { join } from 'node:path';
import type { AuditLog } from '../audit/audit-log.js';
import type { McpHost } from '../mcp-host.js';
import { inspectTools } from './inspect-tools.js';
import { PinStore } from './pin-store.js';
import { ToolTrustService } from './tool-trust-service.js';

/** Where the pins live and who hears of problems with them. */
export interface ToolTrustOptions {
  /** The pins file: `<dataDir>/tool-pins.json` by default; neither keeps pins in memory. */
  toolPinsPath?: string;
  dataDir?: string;
  audit: AuditLog;
  /** The host, once it exists (the service is created first: tools/list results reach it from the start). */
  host: () => McpHost;
  /** Where an unreadable pins file or a failed write is reported (stderr by default). */
  warn?: (message: string) => void;
}

/**
 * Open the pins and the tool trust service for one host (the app, browser mode and every CLI
 * command alike). The service is the catalog's one trust annotator; the warnings it adds come
 * from the poisoning and shadowing heuristics (inspect-tools.ts).
 */
export async function openToolTrust(opts: ToolTrustOptions): Promise<ToolTrustService> {
  const warn = opts.warn ?? ((message: string) => console.warn(`mcp-desk: ${message}`));
  const path = opts.toolPinsPath ?? (opts.dataDir ? join(opts.dataDir, 'tool-pins.json') : undefined);
  const pins = path ? await PinStore.open(path) : PinStore.inMemory();
  if (pins.problem) warn(pins.problem.message);
  const service = new ToolTrustService({
    pins,
    configOf: (id) => opts.host().serverConfig(id),
    audit: opts.audit,
    onChange: () => opts.host().refreshCatalog(),
    onError: warn,
  });
  // Poisoning and shadowing heuristics (inspect-tools.ts): warnings, never blocks.
  service.setWarningSource(inspectTools);
  return service;
}
