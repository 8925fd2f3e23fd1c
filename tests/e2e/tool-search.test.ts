// Tool search end to end (issue 22, Must show 1): the real renderer in Chromium, real browser
// mode with the 70 servers of the tool-search benchmark's pool (527 tools, each served over
// stdio by the data folder's serve.mjs, connected once for the file), the real @google/genai
// client against the fake Gemini. The first request declares at most 32 tools plus
// search_tools; the fake model searches, the next request declares the hit, the fake calls it,
// and the run finishes. The chat shows the offer with its token meter, the search as a card
// and the call; the Tools view ranks like the chat and explains a hit; a tool pinned there
// shows in the tools chip; Servers › Info shows a server's tool-definition tokens.
// Screenshots: test-results/e2e/tool-search-*.png. Skipped with the reason when the data,
// Chromium or the keychain is missing.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  declarationsOf,
  functionCall,
  reply,
  text,
  type RecordedRequest,
  type Turn,
} from '../fixtures/fake-gemini.js';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { modelKeySkipReason } from '../helpers/e2e-app.js';
import { useE2eSession } from '../helpers/e2e-session.js';
import { poolConfig, poolServers, toolsearchData } from '../helpers/toolsearch-pool.js';

const STEP_TIMEOUT_MS = 30_000;
/** Seventy servers start at once; on a busy machine that takes a while. */
const POOL_TIMEOUT_MS = 300_000;
const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const data = toolsearchData();
const skipReason = ('skip' in data ? data.skip : null) ?? chromiumSkipReason ?? modelKeySkipReason;

/** Every pool server, trusted (no approval cards in this flow), with a generous timeout. */
function config(): unknown {
  if ('skip' in data) return { mcpServers: {} };
  const { mcpServers } = poolConfig(data.dir);
  for (const entry of Object.values(mcpServers))
    Object.assign(entry as object, { trust: 'trusted', timeout: 120_000 });
  return { mcpServers };
}

const requests: RecordedRequest[] = [];
/** The fake model: search for the clock, then call what the search declared, then answer. */
function script(request: RecordedRequest): Turn {
  requests.push(request);
  const declared = declarationsOf(request).map((d) => d.name);
  const answered = JSON.stringify(request.body?.contents ?? []).includes('called get_current_time');
  if (answered) return reply(text('It is the time the clock said.'));
  if (declared.includes('time__get_current_time'))
    return reply(functionCall('time__get_current_time', { timezone: 'Asia/Tokyo' }));
  return reply(functionCall('search_tools', { query: 'current time in a time zone' }));
}

const e2e = useE2eSession({
  name: 'tool search',
  prefix: 'tool-search',
  skipReason,
  gemini: { apiKey: API_KEY, script },
  config: config(),
  viewport: { width: 1400, height: 950 },
  startTimeoutMs: POOL_TIMEOUT_MS,
});
const { shot, withEvidence } = e2e;

async function poolConnected(p: Page): Promise<void> {
  await p.goto(e2e.mode!.url, { timeout: POOL_TIMEOUT_MS });
  await p.getByTestId('nav-servers').click();
  for (const id of poolServers('dir' in data ? data.dir : '')) {
    await p
      .locator(`[data-testid="server-state-${id}"][data-state="connected"]`)
      .waitFor({ timeout: POOL_TIMEOUT_MS });
  }
}

test(
  'tool search: a bounded offer, a search, the hit declared and called; shown in the chat, Tools and Servers',
  { timeout: 900_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.gemini) return;
    await withEvidence(p, 'flow', async () => {
      await poolConnected(p);
      await p.getByTestId('nav-chat').click();
      await e2e.session!.storeKey(p);

      await p.getByTestId('chat-input').fill('Give me a short lesson on a chess opening.');
      await p.getByTestId('chat-input').press('Enter');
      await p
        .getByTestId('assistant-text')
        .filter({ hasText: 'the clock said' })
        .waitFor({ timeout: 120_000 });

      // What reached the model: a bounded first request, then the hit declared.
      const generate = requests.filter(
        (r) => r.action === 'streamGenerateContent' || r.action === 'generateContent',
      );
      assert.equal(generate.length, 3);
      const first = declarationsOf(generate[0]).map((d) => d.name);
      assert.ok(first.includes('search_tools'));
      assert.ok(first.length <= 33, `${first.length} declared first`);
      assert.ok(!first.includes('time__get_current_time'));
      const second = declarationsOf(generate[1]).map((d) => d.name);
      assert.ok(second.includes('time__get_current_time'));
      assert.ok(second.length <= 33);

      // What the person sees: the offer and its meter, the search card, the call.
      const offer = p.getByTestId('offer-summary').first();
      await offer.waitFor();
      assert.match(
        (await offer.getByTestId('offer-count').textContent()) ?? '',
        /of 527 tools offered \+ tool search/,
      );
      assert.equal(await offer.getByTestId('offer-meter').count(), 1);
      assert.match((await offer.getByTestId('offer-tokens').textContent()) ?? '', /tokens of 8\.0k/);
      const search = p.getByTestId('search-card');
      assert.match(
        (await search.getByTestId('search-card-query').textContent()) ?? '',
        /current time in a time zone/,
      );
      await search.getByTestId('search-card-hit').filter({ hasText: 'get_current_time' }).waitFor();
      const call = p
        .locator('[data-testid="tool-card"][data-status="done"]')
        .filter({ hasText: 'get_current_time' });
      await call.waitFor();
      // The second request's offer lists the find under the words searched for.
      const secondOffer = p.getByTestId('offer-summary').nth(1);
      await secondOffer.locator('summary').click();
      await secondOffer
        .getByTestId('offer-group')
        .filter({ hasText: 'found by search for “current time in a time zone”' })
        .waitFor();
      await shot(p, 'chat');

      // The Tools view ranks as the chat does, and says why.
      await p.getByTestId('nav-tools').click();
      await p.getByTestId('tool-search').fill('what time is it in Tokyo');
      const why = p.getByTestId('tool-why-time-get_current_time');
      await why.waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.match((await why.textContent()) ?? '', /matches .*time/);
      await p.getByTestId('tool-item-time-get_current_time').click();
      // The switch is the settings' state: it turns on once the host has saved the pin.
      await p.getByTestId('always-offer-time-get_current_time').click();
      await p
        .locator('[data-testid="always-offer-time-get_current_time"]:checked')
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      await shot(p, 'tools');

      // The pin shows in the tools chip; Servers › Info shows what the server's tools cost.
      await p.getByTestId('nav-chat').click();
      await p.getByTestId('tools-chip').click();
      await p
        .getByTestId('pinned-tool')
        .filter({ hasText: 'time/get_current_time' })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      await shot(p, 'chip');
      await p.keyboard.press('Escape');
      await p.getByTestId('nav-servers').click();
      await p.getByTestId('server-row-time').click();
      await p.getByTestId('tab-info').click();
      assert.match(
        (await p.getByTestId('server-tool-tokens').textContent({ timeout: STEP_TIMEOUT_MS })) ?? '',
        /tokens if all its tools were declared/,
      );
      await shot(p, 'server-info');
    });
  },
);
