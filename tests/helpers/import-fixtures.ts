/**
 * Shared pieces of the importer tests: a throwaway Linux context, the fixture files of
 * tests/fixtures/imports/<host-id>/, and checks that a parse gives entries our schema accepts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEntry } from '../../electron/host/config/config-document.js';
import {
  ImportFileError,
  type CandidateFile,
  type HostImporter,
  type ImportContext,
  type ParsedServer,
} from '../../electron/host/importers/importer.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'imports');

export const HOME = '/home/ann';
export const PROJECT = '/home/ann/work/app';

/** A Linux machine with a project open. */
export const linux: ImportContext = { platform: 'linux', home: HOME, env: {}, projectDir: PROJECT };

/** The text of one fixture file. */
export function fixture(...rel: string[]): string {
  return readFileSync(path.join(root, ...rel), 'utf8');
}

/** The importer's candidate file of `scope` (the first, or the one whose path ends with `suffix`). */
export function fileOf(importer: HostImporter, scope: 'user' | 'project', suffix = ''): CandidateFile {
  const file = importer.files(linux).find((f) => f.scope === scope && f.path.endsWith(suffix));
  assert.ok(file, `${importer.id} has a ${scope} file ending ${suffix}`);
  return file;
}

/** Parse a fixture as if it were `file`, and check every importable entry validates. */
export function parseFixture(importer: HostImporter, file: CandidateFile, ...rel: string[]): ParsedServer[] {
  const servers = importer.parse(fixture(...rel), file);
  for (const s of servers) {
    if (s.unsupported !== undefined) continue;
    const checked = parseEntry(s.name, s.entry);
    if (s.name === 'broken-entry') continue;
    assert.ok(checked.ok, `${importer.id} "${s.name}" validates: ${checked.ok ? '' : checked.error}`);
    assert.deepEqual(checked.config, s.entry, `${importer.id} "${s.name}" is already in our shape`);
  }
  return servers;
}

/** The server named `name`. */
export function server(servers: readonly ParsedServer[], name: string): ParsedServer {
  const found = servers.find((s) => s.name === name);
  assert.ok(found, `server "${name}" is in ${servers.map((s) => s.name).join(', ')}`);
  return found;
}

/** The ImportFileError message of parsing `text`; fails when it parses. */
export function fileError(importer: HostImporter, file: CandidateFile, text: string): string {
  try {
    importer.parse(text, file);
  } catch (error) {
    assert.ok(error instanceof ImportFileError, `an ImportFileError, not ${String(error)}`);
    return error.message;
  }
  assert.fail(`${importer.id} accepted a broken file`);
}
