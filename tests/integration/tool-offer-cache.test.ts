/**
 * The tool offer a chat turn sends the model is built once and reused until something it
 * depends on changes: against a real host with two real servers, the same plan (and the same
 * Gemini and OpenAI declarations) comes back while nothing changes, and a new one after a
 * server's tools/list_changed (paged-server's `add-tool`), a tool switched off in settings,
 * and a server stopping.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toGeminiDeclarations } from '../../electron/host/chat/providers/gemini/gemini-declarations.js';
import { toOpenAiTool } from '../../electron/host/chat/providers/openai-request.js';
import { ToolOfferCache } from '../../electron/host/chat/tool-offer-cache.js';
import type { ToolOfferPlan } from '../../electron/host/chat/tool-offer.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  SERVERS,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const LIMIT = 128;

/** Every offered tool as `server/tool`, sorted. */
function offered(plan: ToolOfferPlan): string[] {
  return [...plan.byName.values()].map((o) => `${o.serverId}/${o.tool.name}`).sort();
}

describe('the chat tool offer is cached until a list changes', { timeout: 90_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  const offers = new ToolOfferCache();
  const offer = () => offers.offer(t.host.catalog(), t.settings.get(), LIMIT);

  before(async () => {
    t = await createTestHost(stack, {
      servers: {
        paged: nodeServer(SERVERS.paged),
        modern: nodeServer(SERVERS.modern),
      },
    });
    await waitForState(t.host, 'paged', 'connected');
    await waitForState(t.host, 'modern', 'connected');
  });
  after(() => stack.run());

  it('reuses the plan and the declarations while nothing changes', () => {
    const first = offer();
    assert.ok(offered(first).includes('paged/echo'), offered(first).join(', '));
    assert.ok(offered(first).includes('modern/echo'), offered(first).join(', '));
    const again = offer();
    assert.equal(again, first, 'the same plan object: nothing was rebuilt');
    assert.equal(toGeminiDeclarations(again.tools), toGeminiDeclarations(first.tools));
    assert.equal(toOpenAiTool(again.tools[0]), toOpenAiTool(first.tools[0]));
  });

  it('rebuilds after tools/list_changed', async () => {
    const before = offer();
    assert.ok(!offered(before).includes('paged/extra'));
    await t.host.callTool('paged', 'add-tool', {});
    await waitFor('the new tool in the catalog', () =>
      t.host.catalog().tools.some((x) => x.serverId === 'paged' && x.tool.name === 'extra')
        ? true
        : undefined,
    );
    const after = offer();
    assert.notEqual(after, before);
    assert.ok(offered(after).includes('paged/extra'), offered(after).join(', '));
    const names = toGeminiDeclarations(after.tools).declarations.map((d) => d.name);
    assert.ok(names.includes('paged__extra'), names.join(', '));
    assert.equal(offer(), after, 'and is cached again');
  });

  it('rebuilds when a tool is switched off, and when it is switched back on', async () => {
    const before = offer();
    await t.settings.update({ disabledTools: ['paged/echo'] });
    const off = offer();
    assert.notEqual(off, before);
    assert.ok(!offered(off).includes('paged/echo'), offered(off).join(', '));
    assert.ok(!toGeminiDeclarations(off.tools).declarations.some((d) => d.name === 'paged__echo'));
    await t.settings.update({ disabledTools: [] });
    const on = offer();
    assert.notEqual(on, off);
    assert.ok(offered(on).includes('paged/echo'));
  });

  it('rebuilds when a server stops', async () => {
    const before = offer();
    await t.host.setEnabled('modern', false);
    const after = offer();
    assert.notEqual(after, before);
    assert.ok(!offered(after).some((n) => n.startsWith('modern/')), offered(after).join(', '));
    assert.ok(offered(after).includes('paged/echo'));
  });
});
