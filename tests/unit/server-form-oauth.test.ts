/**
 * The server form's sign-in fields: a pre-registered client goes into the entry's `oauth`
 * block with its secret as a `${secret:NAME}` reference (never a literal in the config file),
 * fields the form does not show are kept, and an empty section adds nothing.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildConfig, emptyForm, formFromEntry } from '../../renderer/views/servers/server-form-model.js';
import { MASKED_VALUE } from '../../shared/domain/server-state.js';

const remote = (extra: Partial<ReturnType<typeof emptyForm>> = {}) => ({
  ...emptyForm(),
  name: 'work',
  transport: 'http' as const,
  url: 'https://mcp.example.com/mcp',
  ...extra,
});

describe('server form: OAuth fields', () => {
  it('builds the oauth block from a client id, a secret reference and scopes', () => {
    const r = buildConfig(
      remote({
        oauthClientId: 'desk-123',
        oauthClientSecret: '${secret:work-oauth}',
        oauthScope: 'read write',
      }),
      null,
    );
    assert.ok(r.ok);
    assert.deepEqual((r.config as { oauth?: unknown }).oauth, {
      clientId: 'desk-123',
      clientSecret: '${secret:work-oauth}',
      scope: 'read write',
    });
  });

  it('refuses a literal client secret: the value belongs in the keychain', () => {
    const r = buildConfig(remote({ oauthClientId: 'desk-123', oauthClientSecret: 'hunter2' }), null);
    assert.equal(r.ok, false);
    assert.match(!r.ok ? (r.errors.oauthClientSecret ?? '') : '', /\$\{secret:NAME\}/);
  });

  it('a secret without a client id is named on the client id field', () => {
    const r = buildConfig(remote({ oauthClientSecret: '${secret:x}' }), null);
    assert.equal(!r.ok && r.errors.oauthClientId, 'a client secret needs its client ID');
  });

  it('adds nothing when the section is empty, and keeps a masked secret and fields it does not show', () => {
    const empty = buildConfig(remote(), null);
    assert.ok(empty.ok);
    assert.equal((empty.config as { oauth?: unknown }).oauth, undefined);
    const base = {
      url: 'https://mcp.example.com/mcp',
      oauth: { clientId: 'a', clientSecret: MASKED_VALUE, clientMetadataUrl: 'https://x.example/cimd.json' },
    };
    const form = formFromEntry('work', base, 'http');
    assert.equal(form.oauthClientId, 'a');
    assert.equal(form.oauthClientSecret, MASKED_VALUE);
    const kept = buildConfig(form, base);
    assert.ok(kept.ok);
    assert.deepEqual((kept.config as { oauth?: unknown }).oauth, {
      clientMetadataUrl: 'https://x.example/cimd.json',
      clientId: 'a',
      clientSecret: MASKED_VALUE,
    });
  });
});
