import type { ServerConfig } from '../../../shared/domain/server-config.js';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import type { ImportResult } from '../../../shared/ipc/channels/server-channels.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { ConfigEntry } from '../config/config-document.js';
import { parseImport } from '../config/import-document.js';
import type { SecretsNotStored } from '../../../shared/domain/server-secrets.js';
import { storeUnlessNoKeychain } from '../util/no-keychain.js';
import type { ServerSecrets } from '../stores/server-secrets.js';
import { HostFailure, toHostError } from '../util/errors.js';
import type { Redactor } from '../util/redact.js';
import { moveLiteralSecrets, type MovedSecret } from './move-secrets.js';

/** The servers side an import needs: what is configured, and the registry's add path. */
export interface ImportTarget {
  list(): ServerSummary[];
  serverConfig(id: string): ServerConfig | undefined;
  importEntries(entries: readonly ConfigEntry[], opts?: { start?: boolean }): Promise<ImportResult>;
}

/**
 * `servers.import` with pasted JSON: the same literal-secret rule as an import from another
 * host, so a key pasted with its server lands in the keychain, not in mcp-servers.json. The
 * keychain is asked only when an entry holds a literal secret; where there is none, such an
 * entry is added with its references unset and the result says so.
 */
export async function importPasted(
  json: string,
  deps: {
    host: ImportTarget;
    secrets: ServerSecrets;
    redactor: Redactor;
    audit?: AuditLog;
    /** Told for each entry just before it is saved (a dry run of the same paste pins what it saw). */
    beforePastedSave?: (serverId: string, entry: ServerConfig) => void;
  },
): Promise<ImportResult> {
  const incoming = parseImport(json);
  const here = new Set(deps.host.list().map((s) => s.id));
  const fresh = incoming.filter((e) => e.ok && !here.has(e.name));
  const anyLiteral = fresh.some(
    (e) => e.ok && moveLiteralSecrets(e.name, e.config, new Set()).moved.length > 0,
  );
  // Names in use, so a moved secret never takes over another's: only needed when one moves.
  const taken = new Set(anyLiteral ? (await deps.secrets.list()).map((s) => s.name) : []);
  const entries: ConfigEntry[] = [];
  const moved: { server: string; secrets: MovedSecret[] }[] = [];
  const notStored: NonNullable<ImportResult['notStored']> = [];
  const failed: ImportResult['skipped'] = [];
  let noKeychain: SecretsNotStored | undefined;
  for (const e of incoming) {
    // A skipped entry (taken name, invalid) stores nothing; the registry says why it was skipped.
    if (!e.ok || here.has(e.name)) {
      entries.push(e);
      continue;
    }
    const out = moveLiteralSecrets(e.name, e.config, taken);
    for (const m of out.moved) deps.redactor.addSecret(m.value);
    let unstored: SecretsNotStored | undefined;
    try {
      // Once the keychain said it is not there, it is not asked again for the next entry.
      unstored = noKeychain
        ? { names: out.moved.map((m) => m.name), reason: noKeychain.reason }
        : await storeUnlessNoKeychain(out.moved, (name, value) => deps.secrets.set(name, value));
    } catch (error) {
      failed.push({
        name: e.name,
        reason: `its secrets could not be stored in the keychain: ${toHostError(error, deps.redactor).message}`,
      });
      continue;
    }
    if (unstored && unstored.names.length > 0) {
      noKeychain = unstored;
      notStored.push({ server: e.name, ...unstored });
    }
    entries.push({ name: e.name, ok: true, config: out.config });
    const stored = out.moved.filter((m) => !unstored?.names.includes(m.name));
    if (stored.length > 0) moved.push({ server: e.name, secrets: stored });
  }
  for (const e of entries) if (e.ok && !here.has(e.name)) deps.beforePastedSave?.(e.name, e.config);
  const result = await deps.host.importEntries(entries);
  const added = new Set(result.added);
  const secrets = moved
    .filter((m) => added.has(m.server))
    .flatMap((m) => m.secrets.map((s) => ({ server: m.server, name: s.name, from: s.from })));
  const unset = notStored.filter((n) => added.has(n.server));
  if (result.added.length > 0) {
    deps.audit?.append({
      kind: 'import',
      action: 'pasted',
      details: {
        added: result.added,
        secretsMoved: secrets.map((s) => s.name),
        ...(unset.length ? { secretsNotStored: unset.flatMap((n) => n.names) } : {}),
      },
    });
  }
  return {
    added: result.added,
    skipped: [...result.skipped, ...failed],
    ...(secrets.length ? { secrets } : {}),
    ...(unset.length ? { notStored: unset } : {}),
  };
}

/**
 * One server of pasted JSON as `servers.import` would save it (literal secrets already
 * references, their values only added to the redactor), for a dry run before it is imported.
 */
export function pastedEntry(
  json: string,
  name: string,
  redactor: Redactor,
): { serverName: string; config: ServerConfig } {
  const entry = parseImport(json).find((e) => e.name === name);
  if (!entry) throw new HostFailure('import_invalid', `The pasted JSON has no server named “${name}”.`);
  if (!entry.ok)
    throw new HostFailure('config_invalid', `“${name}” is not a valid server entry: ${entry.error}`);
  const out = moveLiteralSecrets(name, entry.config, new Set());
  for (const m of out.moved) redactor.addSecret(m.value);
  return { serverName: name, config: out.config };
}
