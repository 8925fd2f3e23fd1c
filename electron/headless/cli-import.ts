import { resolve } from 'node:path';
import {
  EXPORT_FORMATS,
  IMPORT_HOST_IDS,
  type ExportFormat,
  type ImportHostId,
} from '../../shared/domain/imports.js';
import type { ImportApplyResult, ImportScanResult } from '../../shared/ipc/contract.js';
import type { HostServices } from '../host/compose.js';
import { exportFromHost } from '../host/imports/export-from-host.js';
import type { CliArgs } from './cli-args.js';
import { describeDryRun } from './cli-dry-run.js';

/** Where a command writes: stdout for the result, stderr for notes and errors. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/**
 * `mcp-desk import --list` and `mcp-desk import --from HOST [--dry-run]`: the same scan and apply
 * as the app's Import view, into the data folder's server list. Nothing starts: the servers are
 * saved and start with the app (with --dry-run, nothing is saved and each runs once in the
 * dry-run sandbox). Exit 0 ok, 1 nothing of that host could be imported, 2 bad usage.
 */
export async function runImportCommand(args: CliArgs, services: HostServices, io: CliIo): Promise<number> {
  if (args.list === (args.from !== undefined)) {
    io.err(
      'mcp-desk: usage: mcp-desk import --list [--json] | mcp-desk import --from HOST [--dry-run] [--json]',
    );
    return 2;
  }
  if (args.from !== undefined && !(IMPORT_HOST_IDS as readonly string[]).includes(args.from)) {
    io.err(`mcp-desk: unknown host "${args.from}": use one of ${IMPORT_HOST_IDS.join(', ')}`);
    return 2;
  }
  const { host, imports } = services;
  // The list is loaded (names and commands to compare against), but no server is started.
  await host.init(() => false);
  const dirs = [process.cwd(), ...(args.project ? [resolve(args.project)] : [])];
  const scan = await imports.scan(dirs);
  const moves = scan.hosts.some((h) =>
    h.files.some((f) => f.servers.some((c) => c.secrets.some((x) => x.kind === 'moved'))),
  );
  if (scan.keychainError && moves)
    io.err(
      `mcp-desk: no OS keychain here: keys and tokens are taken out of the entries but not stored, so their references stay unset (${scan.keychainError})`,
    );
  if (args.list) {
    if (args.json)
      io.out(
        JSON.stringify({
          hosts: scan.hosts,
          lookedAt: scan.lookedAt,
          ...(scan.keychainError ? { keychainError: scan.keychainError } : {}),
        }),
      );
    else io.out(describeScan(scan));
    return 0;
  }
  const id = args.from as ImportHostId;
  const found = scan.hosts.find((h) => h.id === id);
  if (!found) {
    const looked = scan.lookedAt.find((l) => l.id === id)?.paths ?? [];
    io.err(
      `mcp-desk: no config file of ${id} found; looked at: ${looked.join(', ') || 'nowhere on this system'}`,
    );
    return 1;
  }
  const keys = found.files.flatMap((f) => f.servers.map((s) => s.key));
  const fileErrors = found.files.flatMap((f) => (f.error ? [{ path: f.path, error: f.error }] : []));
  const result: ImportApplyResult = keys.length
    ? await imports.apply(scan.scanId, keys, { start: false, skipDuplicates: true, dryRun: args.dryRun })
    : { added: [], skipped: [] };
  // --dry-run also starts each server that would be added once in the dry-run sandbox.
  const dryRuns = [];
  if (args.dryRun)
    for (const a of result.added)
      dryRuns.push(await services.dryRuns.run({ source: 'import', scanId: scan.scanId, key: a.key }));
  if (args.json)
    io.out(
      JSON.stringify({
        host: id,
        dryRun: args.dryRun,
        configPath: host.configPath,
        ...result,
        fileErrors,
        ...(args.dryRun ? { dryRuns } : {}),
      }),
    );
  else {
    io.out(describeResult(result, fileErrors, args.dryRun, host.configPath));
    for (const report of dryRuns) io.out(describeDryRun(report).join('\n'));
  }
  // Failed: nothing is (now or already) here from that host, and something stood in the way.
  const present = result.added.length > 0 || result.skipped.some((s) => s.reason.startsWith('already here'));
  return !present && (result.skipped.length > 0 || fileErrors.length > 0) ? 1 : 0;
}

/** `mcp-desk export --to FORMAT [--server NAME]...`: the snippet on stdout, where it goes and notes on stderr. */
export async function runExportCommand(args: CliArgs, services: HostServices, io: CliIo): Promise<number> {
  if (!args.to || !(EXPORT_FORMATS as readonly string[]).includes(args.to)) {
    io.err(
      `mcp-desk: ${args.to ? `unknown format "${args.to}"` : 'usage: mcp-desk export --to FORMAT [--server NAME]... [--json]'}: formats are ${EXPORT_FORMATS.join(', ')}`,
    );
    return 2;
  }
  await services.host.init(() => false);
  const snippet = exportFromHost(
    services.host,
    args.servers.length ? args.servers : 'all',
    args.to as ExportFormat,
  );
  if (args.json) io.out(JSON.stringify(snippet));
  else io.out(snippet.text.replace(/\n$/, ''));
  io.err(`mcp-desk: paste into ${snippet.target}`);
  for (const note of snippet.notes) io.err(`note: ${note}`);
  return 0;
}

function describeScan(scan: ImportScanResult): string {
  if (scan.hosts.length === 0) {
    return [
      'No other MCP apps found on this computer. Looked at:',
      ...scan.lookedAt.flatMap((l) => l.paths.map((p) => `  ${l.id}\t${p}`)),
    ].join('\n');
  }
  const lines: string[] = [];
  for (const h of scan.hosts) {
    lines.push(`${h.id}\t${h.label}`);
    for (const f of h.files) {
      lines.push(`  ${f.path} (${f.scope})${f.error ? `: ${f.error}` : ''}`);
      for (const s of f.servers)
        lines.push(
          `    ${s.sourceName}${s.group ? ` [${s.group}]` : ''}${s.error ? ` — invalid: ${s.error}` : ''}`,
        );
    }
  }
  return lines.join('\n');
}

function describeResult(
  result: ImportApplyResult,
  fileErrors: { path: string; error: string }[],
  dryRun: boolean,
  configPath: string,
): string {
  const lines: string[] = [];
  for (const a of result.added) {
    const renamed = a.name !== a.sourceName ? ` (was "${a.sourceName}")` : '';
    lines.push(`${dryRun ? 'would add' : 'added'}\t${a.name}${renamed} from ${a.file}`);
    for (const s of a.secrets) {
      if (a.notStored?.names.includes(s.name))
        lines.push(
          `  ${s.from} taken out but not stored: \${secret:${s.name}} is not set — no keychain here`,
        );
      else if (s.kind === 'moved')
        lines.push(`  ${dryRun ? 'would move' : 'moved'} ${s.from} to the keychain as \${secret:${s.name}}`);
      else if (a.unset.includes(s.name))
        lines.push(`  ${s.from} needs a value: set \${secret:${s.name}} in the app (Servers › Edit)`);
    }
    if (a.notStored) lines.push(`  ${a.notStored.reason}`);
  }
  for (const s of result.skipped) lines.push(`skipped\t${s.name}: ${s.reason}`);
  for (const f of fileErrors) lines.push(`not read\t${f.path}: ${f.error}`);
  const verb = dryRun ? 'would be added; nothing was changed' : `added to ${configPath}`;
  lines.push(`${result.added.length} ${verb}, ${result.skipped.length} skipped.`);
  return lines.join('\n');
}
