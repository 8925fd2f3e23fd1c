/**
 * Spotting literal secrets typed into Environment or Headers (issue 12 item 4), and replacing
 * one with its `${secret:NAME}` reference without touching anything else.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  findLiteralSecrets,
  replaceWithReference,
  suggestSecretName,
} from '../../renderer/views/servers/literal-secrets.js';
import { SERVER_SECRET_NAME } from '../../shared/domain/server-secrets.js';
import { MASKED_VALUE } from '../../shared/domain/server-state.js';

describe('literal secrets in the server form', () => {
  it('finds secrets by key name and by value shape, and skips references and harmless values', () => {
    const env = [
      'OPENAI_API_KEY=sk-abcdefghijklmnop',
      'DEBUG=true',
      'SOMETHING=ghp_abcdefghijklmnopqrstu',
      'SLACK=xoxb-1234567890-abcdef',
      'GOOGLE=AIzaSyA1234567890abcdefghijkl',
      'MY_TOKEN=${secret:kept}',
      'HOME_DIR=${env:HOME}',
      'PASSWORD=xxx',
      'DB_PASSWORD=correct-horse-battery',
      `GITHUB_TOKEN=${MASKED_VALUE}`,
      'MAX_TOKENS=4096',
    ].join('\n');
    const found = findLiteralSecrets(env, 'env', 'my server');
    assert.deepEqual(
      found.map((f) => [f.key, f.line]),
      [
        ['OPENAI_API_KEY', 0],
        ['SOMETHING', 2],
        ['SLACK', 3],
        ['GOOGLE', 4],
        ['DB_PASSWORD', 8],
      ],
    );
    for (const f of found) assert.match(f.suggestedName, SERVER_SECRET_NAME);
    assert.equal(found[0]?.suggestedName, 'my_server.OPENAI_API_KEY');
  });

  it('moves only the token of an Authorization header, keeping its scheme', () => {
    const headers = 'Authorization: Bearer sk-abcdefghijklmnop\nX-Trace: 1\nX-Api-Key: abcdefgh12345';
    const found = findLiteralSecrets(headers, 'headers', 'remote');
    assert.deepEqual(
      found.map((f) => [f.key, f.value]),
      [
        ['Authorization', 'sk-abcdefghijklmnop'],
        ['X-Api-Key', 'abcdefgh12345'],
      ],
    );
    const first = found[0];
    assert.ok(first);
    assert.equal(
      replaceWithReference(headers, first, 'remote.auth'),
      'Authorization: Bearer ${secret:remote.auth}\nX-Trace: 1\nX-Api-Key: abcdefgh12345',
    );
  });

  it('replaces the literal on its line even after lines above it changed', () => {
    const env = 'A=1\nOPENAI_API_KEY=sk-abcdefghijklmnop';
    const [hit] = findLiteralSecrets(env, 'env', 's');
    assert.ok(hit);
    const edited = `NEW=2\n${env}`;
    const out = replaceWithReference(edited, hit, 'k');
    assert.equal(out, 'NEW=2\nA=1\nOPENAI_API_KEY=${secret:k}');
    assert.equal(out.includes('sk-abcdefghijklmnop'), false);
    // Gone meanwhile: nothing is touched.
    assert.equal(replaceWithReference('A=1', hit, 'k'), 'A=1');
  });

  it('suggests names that are valid and not taken', () => {
    assert.equal(suggestSecretName('fs', 'API_KEY', new Set(['fs.API_KEY'])), 'fs.API_KEY-2');
    assert.match(suggestSecretName('', '9 weird key!', new Set()), SERVER_SECRET_NAME);
  });
});
