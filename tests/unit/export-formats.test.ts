/**
 * Issue 14 item 3: what each export says must be done by hand (secrets to fill, references the
 * other host cannot expand, remote servers Claude Desktop's file cannot hold), and Claude Code's
 * add-json commands surviving a real shell's quoting.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { exportServers, type ExportServer } from '../../electron/host/importers/export.js';

const tricky: ExportServer = {
  name: 'notes',
  config: {
    command: 'node',
    args: ['server.js', 'it\'s "quoted" $HOME `and` \\ back'],
    env: { API_KEY: '${secret:NOTES_KEY}', ROOT: '${env:NOTES_ROOT}' },
  },
};

describe('export notes', () => {
  it('Claude Desktop: secrets and ${env:…} to write in by hand', () => {
    const snippet = exportServers('claude-desktop', [tricky]);
    assert.equal(snippet.target, 'claude_desktop_config.json, under "mcpServers"');
    assert.deepEqual(snippet.notes, [
      '"notes" uses ${secret:NOTES_KEY}: Claude Desktop cannot read MCP Desk\'s keychain, so replace it with the value after pasting.',
      '"notes" uses ${env:…}, which Claude Desktop does not expand: write the values in.',
    ]);
    assert.equal(snippet.commands, undefined);
  });

  it('Cursor and gemini-cli: secrets stay references, with the variable syntax to use instead', () => {
    assert.deepEqual(exportServers('cursor', [tricky]).notes, [
      '"notes" uses ${secret:NOTES_KEY}: Cursor cannot read MCP Desk\'s keychain, so replace it with the value (or with ${env:NAME} and set that variable) after pasting.',
    ]);
    const gemini = exportServers('gemini-cli', [tricky]);
    assert.match(gemini.text, /"ROOT": "\$\{NOTES_ROOT\}"/);
    assert.match(gemini.text, /"API_KEY": "\$\{secret:NOTES_KEY\}"/);
  });

  it('every format keeps the keychain reference by name', () => {
    for (const format of ['claude-desktop', 'vscode', 'cursor', 'gemini-cli', 'claude-code'] as const) {
      const snippet = exportServers(format, [tricky]);
      assert.match(`${snippet.text}${snippet.commands?.join('\n') ?? ''}`, /NOTES_KEY/);
    }
  });
});

describe("Claude Code's add-json commands", () => {
  it(
    'quote any argument so a POSIX shell passes the JSON through unchanged',
    { skip: process.platform === 'win32' },
    () => {
      const snippet = exportServers('claude-code', [tricky]);
      const command = snippet.commands?.[0] ?? '';
      assert.ok(command.startsWith("claude mcp add-json 'notes' '"));
      // The same words, printed by the shell instead of run by claude: one per line.
      const shown = spawnSync('sh', ['-c', command.replace(/^claude mcp add-json/, "printf '%s\\n'")], {
        encoding: 'utf8',
      });
      assert.equal(shown.status, 0, shown.stderr);
      const [name, json] = shown.stdout.split('\n');
      assert.equal(name, 'notes');
      assert.deepEqual(JSON.parse(json ?? ''), {
        type: 'stdio',
        command: 'node',
        args: ['server.js', 'it\'s "quoted" $HOME `and` \\ back'],
        env: { API_KEY: '${secret:NOTES_KEY}', ROOT: '${NOTES_ROOT}' },
      });
    },
  );
});
