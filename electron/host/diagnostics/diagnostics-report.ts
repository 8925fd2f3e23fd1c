import { arch, platform, release, type as osType } from 'node:os';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import type { HostInfo } from '../../../shared/ipc/contract.js';
import { KNOWN_SECRET_NAMES, type SecretStore } from '../stores/secret-store.js';
import type { Redactor } from '../util/redact.js';

/** What a diagnostics report is built from: the host's own summaries, nothing from configs. */
export interface DiagnosticsInput {
  info: Pick<HostInfo, 'version' | 'mode'>;
  /** The data folder (where logs and crash dumps are), if this host keeps one. */
  dataDir: string | undefined;
  servers: readonly ServerSummary[];
  /** process.versions: Electron and Chrome appear there when main runs inside Electron. */
  versions?: NodeJS.ProcessVersions;
  now?: Date;
}

/**
 * The "Copy diagnostics" text for a bug report: versions, the OS, the data folder, and each
 * server's name, transport, state and protocol era. Deliberately built from a short list of
 * fields, never from a config: no command, argument, env, URL, header or error message
 * (messages can quote config values) goes in, only error codes.
 */
export function diagnosticsReport(input: DiagnosticsInput): string {
  const v = input.versions ?? process.versions;
  const lines = [
    `MCP Desk ${input.info.version} (${input.info.mode})`,
    `Electron ${v.electron ?? 'n/a'}, Chrome ${v.chrome ?? 'n/a'}, Node ${v.node}`,
    `OS: ${osType()} ${release()} (${platform()}, ${arch()})`,
    `Data folder: ${input.dataDir ?? '(none: nothing is kept on disk)'}`,
    `Generated: ${(input.now ?? new Date()).toISOString()}`,
    '',
    `Servers (${input.servers.length}):`,
    ...input.servers.map(serverLine),
  ];
  if (input.servers.length === 0) lines.push('  (none configured)');
  return `${lines.join('\n')}\n`;
}

function serverLine(s: ServerSummary): string {
  const state = s.state;
  const era = state.kind === 'connected' ? state.info.protocolEra : 'unknown';
  const detail =
    state.kind === 'failed'
      ? ` (${state.error.code})`
      : state.kind === 'reconnecting'
        ? ` (attempt ${state.attempt}, ${state.lastError.code})`
        : state.kind === 'connecting'
          ? ` (attempt ${state.attempt})`
          : '';
  const config = s.config === null ? ', invalid entry' : '';
  return `  - ${s.id}: ${s.transport}, ${state.kind}${detail}, era ${era}${config}`;
}

/**
 * Teach the redactor the app's own API keys (the keychain's Gemini and OpenAI keys), which it
 * otherwise only learns when they are set in this session: an error quoting one must not
 * reach the log either. A keychain that cannot be read teaches nothing.
 */
export async function learnAppSecrets(secrets: SecretStore, redactor: Redactor): Promise<void> {
  for (const name of KNOWN_SECRET_NAMES) {
    const value = await secrets.get(name).catch(() => undefined);
    if (value) redactor.addSecret(value);
  }
}
