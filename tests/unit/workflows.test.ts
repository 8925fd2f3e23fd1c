/**
 * The GitHub Actions workflows (.github/workflows/ci.yml, release.yml): each passes a real
 * validator (@action-validator/cli, its own CLI run with this Node), every npm script, prefix
 * folder, test filter and repo file they use exists, and they do what the release needs: three
 * systems, the Electron binary fetched and required, the installers and their signing secrets.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { tempDir } from '../helpers/temp-dir.js';
import { runScripts, workflowReferenceProblems } from '../helpers/workflow-references.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const workflowsDir = path.join(root, '.github', 'workflows');
const validatorCli = path.join(root, 'node_modules', '@action-validator', 'cli', 'cli.mjs');
const workflows = ['ci.yml', 'release.yml'];
const secrets = [
  'CSC_LINK',
  'CSC_KEY_PASSWORD',
  'APPLE_ID',
  'APPLE_APP_SPECIFIC_PASSWORD',
  'APPLE_TEAM_ID',
  'WIN_CSC_LINK',
  'WIN_CSC_KEY_PASSWORD',
];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function validate(file: string): { code: number | null; output: string } {
  const result = spawnSync(process.execPath, [validatorCli, file], { encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

function read(name: string): string {
  return readFileSync(path.join(workflowsDir, name), 'utf8');
}

/** A workflow's job, as a mapping. */
function job(name: string, id: string): Record<string, unknown> {
  const workflow: unknown = parseYaml(read(name));
  assert.ok(isRecord(workflow) && isRecord(workflow.jobs), `${name} has jobs`);
  const found = workflow.jobs[id];
  assert.ok(isRecord(found), `${name} has a job "${id}"`);
  return found;
}

function steps(found: Record<string, unknown>): Record<string, unknown>[] {
  assert.ok(Array.isArray(found.steps));
  return found.steps.filter(isRecord);
}

describe('workflows', () => {
  for (const name of workflows) {
    it(`${name} passes action-validator`, () => {
      const { code, output } = validate(path.join(workflowsDir, name));
      assert.equal(code, 0, output);
    });

    it(`${name} references only scripts, folders, test files and files that exist`, () => {
      assert.deepEqual(workflowReferenceProblems(root, read(name)), []);
    });
  }

  it('the validator really validates: a misspelt key is refused with its path', async () => {
    const file = path.join(await tempDir(undefined, 'mcp-desk-workflows-'), 'bad.yml');
    writeFileSync(file, 'name: bad\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    stepz: []\n');
    const { code, output } = validate(file);
    assert.equal(code, 1);
    assert.match(output, /stepz/);
  });

  it('a workflow with a missing script, prefix, test filter or file is reported, each by name', async () => {
    const file = path.join(await tempDir(undefined, 'mcp-desk-workflows-'), 'missing.yml');
    const text = [
      'name: missing',
      'on: push',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - name: all wrong',
      '        run: |',
      '          npm run no-such-script && npm run lint',
      '          npm ci --prefix tools/no-such-folder',
      '          npm test -- no-such-test-file workflows',
      '          node scripts/test.mjs another-missing-pattern',
      '          node scripts/no-such-script.mjs',
      '          .ci/no-such-wrapper npm test',
    ].join('\n');
    writeFileSync(file, text);
    const problems = workflowReferenceProblems(root, readFileSync(file, 'utf8'));
    const expected = [
      /no "no-such-script" script in package\.json/,
      /tools\/no-such-folder\/package\.json does not exist/,
      /no test file matches "no-such-test-file"/,
      /no test file matches "another-missing-pattern"/,
      /node scripts\/no-such-script\.mjs: no such file/,
      /\.ci\/no-such-wrapper does not exist/,
    ];
    for (const pattern of expected) {
      assert.ok(
        problems.some((problem) => pattern.test(problem)),
        `${String(pattern)} in\n${problems.join('\n')}`,
      );
    }
    // `npm run lint` exists, and "workflows" matches this very file: neither is reported.
    assert.equal(problems.length, expected.length, problems.join('\n'));
    assert.ok(problems.every((problem) => problem.startsWith('a/all wrong: ')));
  });

  it('ci runs on push and pull requests on three systems with Node 20, requiring Electron', () => {
    const workflow: unknown = parseYaml(read('ci.yml'));
    assert.ok(isRecord(workflow) && isRecord(workflow.on));
    assert.ok('push' in workflow.on && 'pull_request' in workflow.on);
    const test = job('ci.yml', 'test');
    assert.ok(isRecord(test.strategy) && isRecord(test.strategy.matrix));
    assert.deepEqual(test.strategy.matrix.os, ['ubuntu-latest', 'macos-latest', 'windows-latest']);
    assert.ok(isRecord(test.env));
    assert.equal(test.env.MCP_DESK_REQUIRE_ELECTRON, '1');
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    const setup = steps(test).find((step) => String(step.uses).startsWith('actions/setup-node@'));
    assert.ok(setup && isRecord(setup.with));
    assert.equal(setup.with.cache, 'npm');
    const engineMajor = /(\d+)/.exec(manifest.engines.node)?.[1];
    assert.equal(String(setup.with['node-version']), engineMajor, 'the Node major of package.json engines');
    const scripts = runScripts(read('ci.yml')).map((run) => run.script);
    const order = [
      'npm ci',
      'node node_modules/electron/install.js',
      'npm ci --prefix tools/conformance',
      'npm run typecheck',
      'npm run lint',
      'npm test',
      'tests/e2e/electron-app',
    ];
    const positions = order.map((needle) => scripts.findIndex((script) => script.includes(needle)));
    assert.ok(
      positions.every((at, i) => at >= 0 && (i === 0 || at >= positions[i - 1])),
      `${order.join(' → ')} in order: ${positions.join(', ')}`,
    );
  });

  it('release builds AppImage, deb, dmg + zip (x64, arm64) and nsis, publishes, and names every secret', () => {
    const text = read('release.yml');
    const workflow: unknown = parseYaml(text);
    assert.ok(isRecord(workflow) && isRecord(workflow.on) && isRecord(workflow.on.push));
    assert.deepEqual(workflow.on.push.tags, ['v*']);
    assert.deepEqual(workflow.permissions, { contents: 'write' });
    const build = job('release.yml', 'build');
    assert.ok(isRecord(build.strategy) && isRecord(build.strategy.matrix));
    const include = build.strategy.matrix.include;
    assert.ok(Array.isArray(include));
    const targets = include.filter(isRecord).map((entry) => `${String(entry.os)}: ${String(entry.targets)}`);
    assert.deepEqual(targets, [
      'ubuntu-latest: --linux AppImage deb',
      'macos-latest: --mac dmg zip --x64 --arm64',
      'windows-latest: --win nsis',
    ]);
    const dist = steps(build).find((step) => String(step.run).includes('npm run dist'));
    assert.ok(dist && isRecord(dist.env));
    assert.match(String(dist.run), /--publish always/);
    assert.equal(dist.env.GH_TOKEN, '${{ secrets.GITHUB_TOKEN }}');
    for (const secret of secrets) assert.equal(dist.env[secret], `\${{ secrets.${secret} }}`, secret);
    assert.match(String(dist.env.CSC_IDENTITY_AUTO_DISCOVERY), /secrets\.CSC_LINK != ''.*'false'/);
    // The signing secrets are documented where releases are: CONTRIBUTING.md, "Releases and CI".
    const guide = readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8');
    for (const secret of secrets)
      assert.ok(guide.includes(`\`${secret}\``), `CONTRIBUTING.md documents ${secret}`);
  });
});
