/**
 * Issue 27: the CLI's words have one source. docs/cli.md's command reference is generated from
 * USAGE, the text `mcp-desk --help` prints, by scripts/gen-cli-docs.ts; this fails when the page
 * is not what the script would write, and checks that the generated tables say exactly what the
 * help says (nothing lost, nothing read as Markdown markup).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { toString } from 'mdast-util-to-string';
import { USAGE } from '../../electron/headless/cli-args.js';
import {
  CLI_DOC,
  CLI_DOC_COMMAND,
  cliReference,
  parseUsage,
  renderReference,
  withReference,
} from '../../scripts/gen-cli-docs.js';
import { REPO_ROOT } from '../helpers/server-processes.js';

/** Each table row of a Markdown text as its cells' plain text. */
function tableRows(markdown: string): string[][] {
  const rows: string[][] = [];
  visit(unified().use(remarkParse).use(remarkGfm).parse(markdown), 'tableRow', (row) => {
    rows.push(row.children.map((c) => toString(c)));
  });
  return rows;
}

describe('docs/cli.md', () => {
  it('is what scripts/gen-cli-docs.ts writes from --help', () => {
    const page = readFileSync(join(REPO_ROOT, CLI_DOC), 'utf8');
    assert.equal(
      page,
      withReference(page, cliReference()),
      `${CLI_DOC} is out of date: run ${CLI_DOC_COMMAND}`,
    );
  });

  it('lists every entry of the help with its whole text, as plain text', () => {
    const model = parseUsage(USAGE);
    const commands = model.sections.find((s) => s.heading === 'Commands')?.entries ?? [];
    assert.ok(commands.length >= 20, `the help's commands (${commands.length})`);
    for (const name of ['servers', 'tools', 'call', 'ask', 'install', 'import --list', 'browser'])
      assert.ok(
        commands.some((e) => e.usage.startsWith(name)),
        `${name} is a command of the help`,
      );
    // Every word of the help's entries, in order, is in the reference: no line was dropped.
    const words = (s: string): string => s.replace(/\s+/g, ' ').trim();
    const helpBody = USAGE.split('\n')
      .slice(3)
      .filter((l) => !/^\S.*:$/.test(l));
    const rendered = tableRows(renderReference(model)).filter((r) => r[1] !== 'What it does');
    assert.equal(words(rendered.flat().join(' ')), words(helpBody.join(' ')));
  });

  it('refuses a help text whose layout it cannot read, naming the line', () => {
    assert.throws(() => parseUsage('no title\nUsage: x\n'), /title/);
    const odd =
      'mcp-desk — x\n\nUsage: mcp-desk X\n\nCommands:\n  run       does it\n odd line\n            more\n';
    assert.throws(() => parseUsage(odd), /help line " odd line"/);
    const silent =
      'mcp-desk — x\n\nUsage: mcp-desk X\n\nCommands:\n  run       does it\n  quiet\n            more\n';
    assert.deepEqual(parseUsage(silent).sections[0]?.entries, [
      { usage: 'run', text: 'does it' },
      { usage: 'quiet', text: 'more' },
    ]);
  });
});
