// Metrics in real Chromium against real browser mode: tool calls made through the bridge (the
// renderer's own channel) against server-everything, two answered and one failing, show up as
// exact numbers in Servers › Info and in Activity's summary.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import WebSocket from 'ws';
import { pageOrSkip, saveScreenshot } from '../helpers/chromium.js';
import { everythingPage } from '../helpers/everything-page.js';

const setup = everythingPage('browser metrics e2e');
const skipReason = setup.skipReason;

/** A contract client over the bridge, as the renderer is: invoke(channel, payload) -> ok or not. */
async function bridgeClient(url: string) {
  const u = new URL(url);
  const token = new URLSearchParams(u.hash.slice(1)).get('token') ?? '';
  const ws = new WebSocket(`ws://${u.host}/bridge?token=${token}`, { origin: u.origin });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const pending = new Map<number, (frame: { ok?: boolean; error?: { code: string } }) => void>();
  ws.on('message', (data) => {
    const frame = JSON.parse((data as Buffer).toString('utf8')) as {
      type: string;
      id?: number;
      ok?: boolean;
    };
    if (frame.type === 'result' && frame.id !== undefined) pending.get(frame.id)?.(frame);
  });
  let next = 0;
  const invoke = (channel: string, payload: unknown) =>
    new Promise<{ ok?: boolean; error?: { code: string } }>((resolve) => {
      const id = ++next;
      pending.set(id, (frame) => {
        pending.delete(id);
        resolve(frame);
      });
      ws.send(JSON.stringify({ type: 'invoke', id, channel, payload }));
    });
  return { invoke, close: () => ws.close() };
}

test('Servers › Info and Activity show exactly the calls that were made', { timeout: 150_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, setup.page());
  const mode = setup.mode();
  if (!p || !mode) return;
  try {
    await p.goto(mode.url);
    await p.getByTestId('nav-servers').click();
    await p
      .locator('[data-testid="server-state-everything"][data-state="connected"]')
      .waitFor({ timeout: 60_000 });
    const client = await bridgeClient(mode.url);
    try {
      let calls = 0;
      const call = (tool: string, args: Record<string, unknown>) =>
        client.invoke('tools.call', { serverId: 'everything', tool, args, callId: `m-${tool}-${++calls}` });
      const first = await call('echo', { message: 'one' });
      assert.equal(first.ok, true, JSON.stringify(first));
      assert.equal((await call('echo', { message: 'two' })).ok, true);
      const failed = await call('no-such-tool', {});
      assert.equal(failed.ok, false);
    } finally {
      client.close();
    }

    await p.getByTestId('server-row-everything').click();
    await p.getByTestId('tab-info').click();
    // The panel polls every 2 s; the numbers are exact once there.
    await p.getByTestId('metric-calls').filter({ hasText: /^3$/ }).waitFor({ timeout: 15_000 });
    assert.equal(await p.getByTestId('metric-ok').innerText(), '2');
    assert.equal(await p.getByTestId('metric-errors').innerText(), '1');
    assert.equal(await p.getByTestId('metric-timeouts').innerText(), '0');
    assert.match(
      await p.getByTestId('metric-latency').innerText(),
      /p50 [\d.]+ ms · p95 [\d.]+ ms · p99 [\d.]+ ms/,
    );
    assert.match(await p.getByTestId('metric-connections').innerText(), /^1 connect, 0 reconnects/);
    await saveScreenshot(p, 'metrics-server-info', false);

    await p.getByTestId('nav-audit').click();
    // The summary starts collapsed (issue 24): open it.
    await p.getByTestId('metrics-summary-toggle').click();
    const row = p.getByTestId('metrics-row-everything');
    await row.waitFor({ timeout: 15_000 });
    const cells = await row.locator('td').allInnerTexts();
    assert.deepEqual(cells.slice(0, 4), ['everything', '3', '1', '0']);
    await saveScreenshot(p, 'metrics-activity', false);
  } catch (error) {
    await saveScreenshot(p, 'metrics-failure', true).catch(() => undefined);
    throw error;
  }
});
