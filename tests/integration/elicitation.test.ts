/**
 * Elicitation end to end through the real pending queue: server-everything's 13-field form
 * and URL elicitation over stdio and Streamable HTTP, and the 2026-07-28 input_required
 * flow of the modern fixture. A "person" answers through the broker, as the UI does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ElicitationRequestView, PendingResponse } from '../../shared/domain/pending.js';
import { fieldDefaults, parseRequestedSchema } from '../../shared/elicitation/elicitation-schema.js';
import {
  addEverything,
  CleanupStack,
  createModernHost,
  createTestHost,
  rejection,
  textOf,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

type Answer = Extract<PendingResponse, { kind: 'elicitation' }>;

/** Wait for the next elicitation from `serverId` and answer it; returns what the person saw. */
async function answerNext(
  t: TestHost,
  serverId: string,
  answer: (view: ElicitationRequestView) => Answer,
  seen = new Set<string>(),
): Promise<ElicitationRequestView> {
  const view = await waitFor(`an elicitation from ${serverId}`, () =>
    t.broker
      .list()
      .find(
        (r): r is ElicitationRequestView =>
          r.kind === 'elicitation' && r.serverId === serverId && !seen.has(r.id),
      ),
  );
  seen.add(view.id);
  assert.equal(t.broker.respond(view.id, answer(view)), true);
  return view;
}

function defaultsPlusName(view: ElicitationRequestView): Record<string, unknown> {
  const parsed = parseRequestedSchema(view.requestedSchema);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return { ...fieldDefaults(parsed.fields), name: 'Ada Lovelace' };
}

const URL_TO_OPEN = 'https://example.com/consent?state=abc&x=1';

for (const transport of ['stdio', 'http'] as const) {
  describe(`elicitation with server-everything over ${transport}`, { timeout: 120_000 }, () => {
    const stack = new CleanupStack();
    const opened: string[] = [];
    let t: TestHost;
    const id = `everything-${transport}`;

    before(async () => {
      t = await createTestHost(stack, { servers: {}, openExternal: async (url) => void opened.push(url) });
      await addEverything(stack, t, id, transport);
    });
    after(() => stack.run());

    it('offers the elicitation tools (the capability is declared)', () => {
      const tools = t.host
        .catalog()
        .tools.filter((x) => x.serverId === id)
        .map((x) => x.tool.name);
      assert.ok(
        tools.includes('trigger-elicitation-request') && tools.includes('trigger-url-elicitation'),
        tools.join(','),
      );
    });

    it('shows the 13-field form and returns the accepted values', async () => {
      const call = t.host.callTool(id, 'trigger-elicitation-request', {});
      const view = await answerNext(t, id, (v) => ({
        kind: 'elicitation',
        action: 'accept',
        content: defaultsPlusName(v),
      }));
      assert.equal(view.mode, 'form');
      assert.deepEqual(view.warnings, []);
      const parsed = parseRequestedSchema(view.requestedSchema);
      assert.ok(parsed.ok);
      assert.equal(parsed.fields.length, 13);
      assert.deepEqual(
        parsed.fields.filter((f) => f.required).map((f) => f.name),
        ['name'],
      );
      const text = textOf(await call);
      assert.match(text, /User provided the requested information/);
      assert.match(text, /- Name: Ada Lovelace/);
      assert.match(text, /- Favorite Integer: 42/);
      assert.match(text, /- Favorite Number: 3\.14/);
      assert.match(text, /"titledMultipleSelectEnum": \[\s*"fish-1"\s*\]/);
    });

    it('asks again when the answer breaks the schema, and sends only a valid one', async () => {
      const seen = new Set<string>();
      const call = t.host.callTool(id, 'trigger-elicitation-request', {});
      // Defaults only: the required name is missing, and the integer is out of range.
      await answerNext(
        t,
        id,
        (v) => ({
          kind: 'elicitation',
          action: 'accept',
          content: { ...defaultsPlusName(v), name: undefined, integer: 500 },
        }),
        seen,
      );
      const again = await answerNext(
        t,
        id,
        (v) => ({ kind: 'elicitation', action: 'accept', content: defaultsPlusName(v) }),
        seen,
      );
      const note = again.warnings.join('\n');
      assert.match(note, /"name" is required/);
      assert.match(note, /"integer" must be at most 100/);
      assert.match(textOf(await call), /- Name: Ada Lovelace/);
    });

    it('keeps decline and cancel apart', async () => {
      const declined = t.host.callTool(id, 'trigger-elicitation-request', {});
      await answerNext(t, id, () => ({ kind: 'elicitation', action: 'decline' }));
      const cancelled = t.host.callTool(id, 'trigger-elicitation-request', {});
      await answerNext(t, id, () => ({ kind: 'elicitation', action: 'cancel' }));
      const [d, c] = [textOf(await declined), textOf(await cancelled)];
      assert.match(d, /User declined/);
      assert.match(c, /User cancelled/);
      assert.notEqual(d, c);
    });

    it('opens an accepted URL, showing its domain first', async () => {
      opened.length = 0;
      const call = t.host.callTool(id, 'trigger-url-elicitation', {
        url: URL_TO_OPEN,
        message: 'Sign in, please',
      });
      const view = await answerNext(t, id, () => ({ kind: 'elicitation', action: 'accept' }));
      assert.equal(view.mode, 'url');
      assert.equal(view.url, URL_TO_OPEN);
      assert.equal(view.domain, 'example.com');
      assert.equal(view.message, 'Sign in, please');
      assert.match(textOf(await call), /User completed the URL elicitation flow/);
      assert.deepEqual(opened, [URL_TO_OPEN]);
    });

    it('opens nothing when the URL is declined', async () => {
      opened.length = 0;
      const call = t.host.callTool(id, 'trigger-url-elicitation', { url: URL_TO_OPEN });
      await answerNext(t, id, () => ({ kind: 'elicitation', action: 'decline' }));
      assert.match(textOf(await call), /User declined to open the URL/);
      assert.deepEqual(opened, []);
    });

    it('settles a waiting elicitation when its server stops', async () => {
      const call = t.host.callTool(id, 'trigger-elicitation-request', {});
      await waitFor('the form to be pending', () =>
        t.broker.list().find((r) => r.kind === 'elicitation' && r.serverId === id),
      );
      await t.host.setEnabled(id, false);
      await waitFor('the queue to empty', () =>
        t.broker.list().some((r) => r.serverId === id) ? undefined : true,
      );
      await rejection(call);
      await t.host.setEnabled(id, true);
      await waitForState(t.host, id, 'connected');
    });
  });
}

describe('elicitation through input_required (2026-07-28) over stdio', { timeout: 60_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;

  before(async () => {
    t = await createModernHost(stack);
  });
  after(() => stack.run());

  it('asks a person and finishes the call with the answer', async () => {
    const call = t.host.callTool('modern', 'ask-name', {});
    const view = await answerNext(t, 'modern', () => ({
      kind: 'elicitation',
      action: 'accept',
      content: { name: 'Grace' },
    }));
    assert.equal(view.message, 'What is your name?');
    assert.equal(textOf(await call), 'hello Grace');
  });

  it('reports a cancel back to the server, distinct from a decline', async () => {
    const call = t.host.callTool('modern', 'ask-name', {});
    await answerNext(t, 'modern', () => ({ kind: 'elicitation', action: 'cancel' }));
    assert.equal(textOf(await call), 'ask-name cancel');
  });

  it('URL mode: shows the domain, and reports accept and decline', async () => {
    for (const action of ['accept', 'decline'] as const) {
      const call = t.host.callTool('modern', 'open-link', {});
      const view = await answerNext(t, 'modern', () => ({ kind: 'elicitation', action }));
      assert.equal(view.mode, 'url');
      assert.equal(view.url, 'https://example.com/confirm?id=42');
      assert.equal(view.domain, 'example.com');
      assert.equal(textOf(await call), `open-link ${action}`);
    }
  });

  it('reports a decline back to the server', async () => {
    const call = t.host.callTool('modern', 'ask-name', {});
    await answerNext(t, 'modern', () => ({ kind: 'elicitation', action: 'decline' }));
    const result = await call;
    assert.equal(textOf(result), 'ask-name decline');
    assert.equal(result.isError, true);
  });
});
