/**
 * Splitting a command line pasted into the server form's Command field (issue 12 item 4):
 * shell quoting, env assignments moved out, `$VAR` to the host's `${env:VAR}`, host references
 * kept, shell operators refused, and paths with spaces left to the person.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyseCommand, describeSplit } from '../../renderer/views/servers/command-line.js';

describe('command line splitting', () => {
  it('splits a pasted npx line with a quoted argument containing a space', () => {
    const a = analyseCommand('npx -y @modelcontextprotocol/server-filesystem "/tmp/my dir"');
    assert.deepEqual(a, {
      kind: 'split',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp/my dir'],
      env: [],
    });
    assert.ok(a.kind === 'split');
    assert.equal(describeSplit(a), 'command npx, 3 arguments');
  });

  it('leaves a single program alone', () => {
    assert.deepEqual(analyseCommand('npx'), { kind: 'single' });
    assert.deepEqual(analyseCommand('  /usr/local/bin/server  '), { kind: 'single' });
  });

  it('moves leading FOO=bar assignments to the environment', () => {
    const a = analyseCommand('FOO=bar BAZ="a b" node server.js --port 3');
    assert.deepEqual(a, {
      kind: 'split',
      command: 'node',
      args: ['server.js', '--port', '3'],
      env: [
        ['FOO', 'bar'],
        ['BAZ', 'a b'],
      ],
    });
    assert.ok(a.kind === 'split');
    assert.match(describeSplit(a), /FOO, BAZ moved to Environment/);
  });

  it('keeps ${secret:…} and ${env:…} and turns $VAR into ${env:VAR}; single quotes stay literal', () => {
    const a = analyseCommand(`node \${secret:KEY} "$HOME/x" '\${env:Y}' '$LITERAL'`);
    assert.deepEqual(a, {
      kind: 'split',
      command: 'node',
      args: ['${secret:KEY}', '${env:HOME}/x', '${env:Y}', '$LITERAL'],
      env: [],
    });
  });

  it('refuses pipes, && and redirections with the operators found', () => {
    assert.deepEqual(analyseCommand('cat x | jq .'), { kind: 'shell', ops: ['|'] });
    const b = analyseCommand('a && b > out.txt');
    assert.ok(b.kind === 'shell');
    assert.deepEqual([...b.ops].sort(), ['&&', '>']);
  });

  it('asks about an unquoted path with spaces, and splits a quoted one', () => {
    const a = analyseCommand('/opt/My App/bin/server');
    assert.ok(a.kind === 'ambiguous');
    assert.equal(a.split.command, '/opt/My');
    assert.deepEqual(analyseCommand('"/opt/My App/bin/server" --port 3'), {
      kind: 'split',
      command: '/opt/My App/bin/server',
      args: ['--port', '3'],
      env: [],
    });
    assert.deepEqual(analyseCommand('"/opt/My App/server"'), {
      kind: 'split',
      command: '/opt/My App/server',
      args: [],
      env: [],
    });
    // A flag right after the path settles it: a program and its arguments.
    assert.equal(analyseCommand('/usr/bin/node --inspect x.js').kind, 'split');
  });

  it('keeps Windows backslashes, and says when a quote never closes', () => {
    const a = analyseCommand('C:\\Program Files\\x.exe --a');
    assert.ok(a.kind === 'ambiguous');
    assert.equal(a.split.command, 'C:\\Program');
    assert.deepEqual(a.split.args, ['Files\\x.exe', '--a']);
    assert.deepEqual(analyseCommand('npx "unclosed'), { kind: 'unbalanced' });
  });
});
