/**
 * `mcp-desk tools --search` and `mcp-desk offer` through the built CLI. The offer test runs
 * the 70 servers of the tool-search benchmark's pool (served by its serve.mjs over stdio) and
 * its 95 tasks, read from ../shared/benchmarks/toolsearch (skipped with the reason when the
 * data is absent): servers connect once, one JSON line per prompt, and no offer declares
 * more tools than the provider accepts or more than the budget.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli-runner.js';
import { CleanupStack, nodeServer, REPO_ROOT, SERVERS, tempDir } from '../helpers/host-harness.js';
import { poolConfig, poolQueries, scoreTask, toolsearchData } from '../helpers/toolsearch-pool.js';

const data = toolsearchData();

describe('mcp-desk tools --search and offer', { timeout: 600_000 }, () => {
  const stack = new CleanupStack();
  let dir: string;
  before(async () => {
    dir = await tempDir(stack);
  });
  after(() => stack.run());

  it('tools --search prints ranked tools with scores and the words each matched', async () => {
    const config = join(dir, 'small.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          everything: nodeServer(SERVERS.everything, ['stdio']),
          rug: nodeServer(join(REPO_ROOT, 'tests/fixtures/rug-pull-server.mjs')),
        },
      }),
    );
    const env = { MCP_DESK_DATA_DIR: join(dir, 'data') };
    const json = await runCli(
      ['tools', '--search', 'fetch a web page', '--limit', '3', '--json', '--config', config],
      env,
    );
    assert.equal(json.code, 0, json.stderr);
    const hits = JSON.parse(json.stdout) as {
      serverId: string;
      tool: string;
      score: number;
      terms: string[];
    }[];
    assert.ok(hits.length > 0 && hits.length <= 3);
    assert.deepEqual([hits[0].serverId, hits[0].tool], ['rug', 'fetch-page']);
    assert.ok(hits[0].terms.includes('fetch'));
    assert.ok(
      hits.every((h, i) => i === 0 || h.score <= hits[i - 1].score),
      'best first',
    );
    const plain = await runCli(['tools', '--search', 'add two numbers', '--config', config], env);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout.split('\n')[0], /^\d+\.\d{3}\teverything\tget-sum\tmatch: /);
  });

  it('offer: every one of the 95 tasks gets one JSON line, within the budget and the provider cap', async (t) => {
    if ('skip' in data) {
      t.skip(data.skip);
      return;
    }
    const queries = poolQueries(data.dir);
    const config = join(dir, 'pool.json');
    const prompts = join(dir, 'prompts.txt');
    await writeFile(config, JSON.stringify(poolConfig(data.dir)));
    await writeFile(prompts, queries.map((q) => q.query.replace(/\s+/g, ' ').trim()).join('\n'));
    // Seventy servers start at once: each step gets a generous timeout on a busy machine.
    const run = await runCli(
      ['offer', '--prompts', prompts, '--json', '--config', config, '--timeout', '120000'],
      { MCP_DESK_DATA_DIR: join(dir, 'pool-data') },
      500_000,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /failed|connecting/, 'every pool server connected');
    const lines = run.stdout
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            prompt: string;
            declared: number;
            cap: number;
            tokens: number;
            enabled: number;
            tools: { server: string; tool: string }[];
            searchTool?: string;
          },
      );
    assert.equal(lines.length, queries.length);
    let found = 0;
    for (const [i, l] of lines.entries()) {
      assert.equal(l.enabled, 527);
      assert.ok(l.declared <= l.cap, `task ${i}: ${l.declared} declared, the cap is ${l.cap}`);
      assert.ok(l.tools.length <= 32, `task ${i}: ${l.tools.length} tools`);
      assert.ok(l.tokens <= 8000, `task ${i}: ${l.tokens} tokens`);
      assert.equal(l.searchTool, 'search_tools');
      found += scoreTask(queries[i], new Set(l.tools.map((x) => `${x.server}/${x.tool}`))).found;
    }
    // Far above the 23% of the first 128 tools in name order (the behaviour before).
    const total = queries.reduce((n, q) => n + q.gold.length, 0);
    assert.ok(found / total > 0.5, `gold recall ${(found / total).toFixed(3)}`);
  });
});
