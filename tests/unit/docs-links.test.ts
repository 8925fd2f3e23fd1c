/**
 * Issue 27: every relative link and #anchor of the documentation resolves — README.md,
 * CONTRIBUTING.md, SECURITY.md, CHANGELOG.md and docs/**.md — with anchors as GitHub makes them
 * from headings. The checker itself is tried on links that must fail.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../helpers/server-processes.js';
import { brokenLinks, markdownFacts, markdownFilesUnder } from '../helpers/markdown-links.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The documentation the check covers. */
function documentation(): string[] {
  return [
    'README.md',
    'CONTRIBUTING.md',
    'SECURITY.md',
    'CHANGELOG.md',
    ...markdownFilesUnder(REPO_ROOT, 'docs'),
  ];
}

describe('documentation links', () => {
  it('no page of the guide is an orphan: the README or the guide index links each one', () => {
    const pages = markdownFilesUnder(REPO_ROOT, 'docs').filter((f) => f !== 'docs/README.md');
    assert.ok(pages.length >= 15, `the guide's pages (${pages.length})`);
    const linked = new Set(
      [
        ...markdownFacts(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).links.map((l) => l.url),
        ...markdownFacts(readFileSync(join(REPO_ROOT, 'docs/README.md'), 'utf8')).links.map(
          (l) => `docs/${l.url}`,
        ),
      ].map((url) => url.split('#')[0]),
    );
    assert.deepEqual(
      pages.filter((p) => !linked.has(p)),
      [],
      'pages neither README.md nor docs/README.md links',
    );
  });

  it('every relative link and anchor resolves', () => {
    assert.deepEqual(brokenLinks(REPO_ROOT, documentation()), [], 'broken links in the documentation');
  });

  it('anchors are slugged as GitHub does', () => {
    const { anchors } = markdownFacts(
      [
        '# Flow guard: untrusted content before a dangerous call',
        '## `mcp-desk` on the command line',
        "## Browser mode's session token",
        '## Setup',
        '## Setup',
        '<a id="custom-anchor"></a>',
      ].join('\n\n'),
    );
    assert.deepEqual(
      [...anchors].sort(),
      [
        'browser-modes-session-token',
        'custom-anchor',
        'flow-guard-untrusted-content-before-a-dangerous-call',
        'mcp-desk-on-the-command-line',
        'setup',
        'setup-1',
      ].sort(),
    );
  });

  it('reports a missing file, a missing anchor, a link out of the repository and a build output', async () => {
    const root = await tempDir(undefined, 'docs-links-');
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'a.md'), '# A page\n\n## Real part\n');
    writeFileSync(join(root, 'code.ts'), 'export {};\n');
    writeFileSync(
      join(root, 'README.md'),
      [
        '# Title',
        '[fine](docs/a.md#real-part) [self](#title) [web](https://example.com/x#y) [line](code.ts#L1)',
        '[gone](docs/missing.md) [no anchor](docs/a.md#imaginary-part) [here](#nowhere)',
        '[out](../elsewhere.md) [built](out/headless/cli.mjs) ![pic](docs/pic.png)',
        '[ref]: docs/also-missing.md',
      ].join('\n\n'),
    );
    const problems = brokenLinks(root, ['README.md', 'docs/a.md']);
    assert.deepEqual(
      problems.map((p) => p.replace(/^README\.md:\d+: /, '')),
      [
        'docs/missing.md: docs/missing.md does not exist',
        'docs/a.md#imaginary-part: docs/a.md has no heading #imaginary-part',
        '#nowhere: README.md has no heading #nowhere',
        '../elsewhere.md: points outside the repository',
        'out/headless/cli.mjs: out/headless/cli.mjs is made by a build or a run',
        'docs/pic.png: docs/pic.png does not exist',
        'docs/also-missing.md: docs/also-missing.md does not exist',
      ],
    );
  });
});
