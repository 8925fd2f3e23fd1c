/**
 * `mcp-desk tools --json` and the pinned tool definitions (issue 15 item 6): a one-shot
 * command uses the app's pins in the data folder, so a tool it sees first is pinned there;
 * every row carries its fingerprint, pin status and warnings; a later run in which the tool
 * reads differently prints it as changed and keeps the pin of what was first seen.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, type CliRun } from '../helpers/cli-runner.js';
import { CleanupStack, nodeServer, REPO_ROOT, tempDir } from '../helpers/host-harness.js';

const RUG = join(REPO_ROOT, 'tests/fixtures/rug-pull-server.mjs');

interface Row {
  server: string;
  name: string;
  fingerprint: string;
  pin: string;
  changedAt?: string;
  warnings: unknown[];
}

describe('mcp-desk tools --json with pins', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let dataDir: string;
  let config: string;
  let versionFile: string;

  before(async () => {
    const dir = await tempDir(stack);
    dataDir = join(dir, 'data');
    config = join(dir, 'mcp-servers.json');
    versionFile = join(dir, 'rug-version');
    await writeFile(versionFile, 'v1');
    const server = nodeServer(RUG, [], { env: { RUG_VERSION_FILE: versionFile } });
    await writeFile(config, JSON.stringify({ mcpServers: { rug: server } }));
  });
  after(() => stack.run());

  const tools = async (): Promise<Row[]> => {
    const run: CliRun = await runCli(['tools', '--json', '--config', config], { MCP_DESK_DATA_DIR: dataDir });
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout) as Row[];
  };
  const pinsFile = async () =>
    JSON.parse(await readFile(join(dataDir, 'tool-pins.json'), 'utf8')) as {
      servers: { serverId: string; tools: { definition: { name: string }; fingerprint: string }[] }[];
    };

  it('prints fingerprints and pins what it sees first in the data folder', async () => {
    const rows = await tools();
    const fetch = rows.find((r) => r.name === 'fetch-page');
    assert.ok(fetch, JSON.stringify(rows));
    for (const r of rows) {
      assert.match(r.fingerprint, /^[0-9a-f]{64}$/);
      assert.equal(r.pin, 'pinned');
      assert.deepEqual(r.warnings, []);
    }
    const file = await pinsFile();
    assert.deepEqual(
      file.servers.map((s) => s.serverId),
      ['rug'],
    );
    const pinned = file.servers[0].tools.find((t) => t.definition.name === 'fetch-page');
    assert.equal(pinned?.fingerprint, fetch.fingerprint, 'the pin is what the command printed');
  });

  it('a later run shows the tool as changed and keeps the first pin', async () => {
    const [first] = (await pinsFile()).servers[0].tools.filter((t) => t.definition.name === 'fetch-page');
    await writeFile(versionFile, 'v2');
    const fetch = (await tools()).find((r) => r.name === 'fetch-page');
    assert.equal(fetch?.pin, 'changed');
    assert.ok(fetch.changedAt);
    assert.notEqual(fetch.fingerprint, first?.fingerprint);
    const [still] = (await pinsFile()).servers[0].tools.filter((t) => t.definition.name === 'fetch-page');
    assert.equal(still?.fingerprint, first?.fingerprint);
    const again = (await tools()).find((r) => r.name === 'fetch-page');
    assert.equal(again?.pin, 'changed', 'a change stays until a person accepts it');
  });
});
