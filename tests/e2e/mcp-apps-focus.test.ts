// Focus capture by an MCP App view (issue 28 §3), end to end in browser mode in real Chromium: the
// hostile intruder view calls focus() on its own input every 40 ms while the person types into
// the chat box. Twice: in a Chromium that enforces the `focus-without-user-activation` permissions
// policy (started with the feature on, as shipped Chrome has it), where the view never gets a
// keystroke it was not given and may still be used when the person clicks it; and in one that does
// not, where the view's header says so and the app's guard takes the focus back and stops a view
// that keeps taking it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { keychainSkipReason } from '../helpers/e2e-app.js';
import { e2eEvidence, startE2eSession, type E2eSession } from '../helpers/e2e-session.js';
import { HOSTILE_APP_SERVER } from '../helpers/hostile-app.js';
import { openViewThroughChat, trustServer, viewFrame } from '../helpers/isolation-app.js';
import { RECENT_INPUT_MS } from '../../renderer/components/mcp-app/focus-guard.js';

const STEP = 30_000;
const skipReason = chromiumSkipReason ?? keychainSkipReason('the API key is kept in the OS keychain');
/** The Blink feature behind the policy; on by default in Chrome 149+, off in Debian's Chromium build. */
const ENFORCE = '--enable-features=BlockingFocusWithoutUserActivation';
const TYPED = 'the quick brown fox jumps over the lazy dog';

/**
 * A session with the hostile server trusted and the intruder stealing focus in chat. The test
 * never reads the view's frame before the person's first typing: Playwright evaluates with a user
 * gesture, which would hand the view the very activation it must not have.
 */
function focusSession(name: string, chromiumArgs: string[]) {
  const state: { session: E2eSession | null } = { session: null };
  before(async () => {
    if (skipReason) {
      console.log(`mcp-apps-focus e2e skipped: ${skipReason}`);
      return;
    }
    state.session = await startE2eSession({
      gemini: { apiKey: `e2e-${randomBytes(12).toString('hex')}`, script: [] },
      config: { mcpServers: { hostile: { command: process.execPath, args: [HOSTILE_APP_SERVER] } } },
      viewport: { width: 1300, height: 1000 },
      connect: ['hostile'],
      chromiumArgs,
    });
    const p = state.session.page;
    await state.session.storeKey(p);
    await e2eEvidence(`mcp-apps-focus-${name}`, () => state.session).withEvidence(p, 'setup', async () => {
      await trustServer(p, 'hostile');
      await p.getByTestId('nav-chat').click();
      await openViewThroughChat(p, state.session!.gemini!, 'hostile', 'intrude', { mode: 'focus' });
    });
  });
  after(() => state.session?.stop());
  return state;
}

/** What the view caught of the person's typing, and how often it tried to take the focus. */
async function trap(p: Page): Promise<{ keys: string; attempts: number }> {
  const keys = viewFrame(p, 'intrude', 'hostile').frameLocator('#view').locator('#trap-keys');
  return {
    keys: (await keys.getAttribute('data-keys')) ?? '',
    attempts: Number((await keys.getAttribute('data-attempts')) ?? 0),
  };
}

/** Click the chat box and type, one key at a time like a person. */
async function typeInChat(p: Page, text: string): Promise<void> {
  await p.getByTestId('chat-input').click();
  await p.keyboard.type(text, { delay: 30 });
}

const stopped = (p: Page) =>
  p.locator('[data-testid="app-view"][data-state="stopped"]').filter({ hasText: 'keyboard focus' });

describe('where the browser enforces focus-without-user-activation', () => {
  const s = focusSession('enforced', [ENFORCE]);
  const { withEvidence } = e2eEvidence('mcp-apps-focus-enforced', () => s.session);

  test('a view that takes the focus on its own gets none of what the person types', async (t) => {
    const p = pageOrSkip(t, skipReason, s.session?.page ?? null);
    if (!p) return;
    await withEvidence(p, 'steal', async () => {
      await typeInChat(p, TYPED);
      assert.equal(
        await p.getByTestId('chat-input').inputValue(),
        TYPED,
        'every keystroke reached the chat box',
      );
      assert.equal(
        await p.getByTestId('app-view-focus-note').count(),
        0,
        'no focus disclosure where it is enforced',
      );
    });
  });

  test('the person can still use the view: what they type after clicking it reaches it', async (t) => {
    const p = pageOrSkip(t, skipReason, s.session?.page ?? null);
    if (!p) return;
    await withEvidence(p, 'use', async () => {
      // The person pauses before reaching for the view (a click right after typing in the app
      // looks like theft to the guard, see focus-guard.ts; this is the ordinary case).
      await p.waitForTimeout(RECENT_INPUT_MS + 250);
      await viewFrame(p, 'intrude', 'hostile').frameLocator('#view').locator('#trap').click();
      await p.keyboard.type('inside', { delay: 30 });
      const caught = await trap(p);
      assert.equal(
        caught.keys,
        'inside',
        'the view got only what was typed into it, none of the chat box typing',
      );
      assert.ok(
        caught.attempts > 10,
        `meanwhile it kept trying to take the focus (${caught.attempts} times)`,
      );
    });
  });

  test('a view the person used cannot take the focus back while they use the app: it is stopped', async (t) => {
    const p = pageOrSkip(t, skipReason, s.session?.page ?? null);
    if (!p) return;
    await withEvidence(p, 'take-back', async () => {
      // For the seconds its activation lasts, the browser lets the view take the focus back as
      // soon as the person returns to the app; the guard returns it, and stops the view.
      await p.getByTestId('chat-input').fill('');
      await typeInChat(p, TYPED);
      await stopped(p).waitFor({ timeout: STEP });
      await p.getByTestId('chat-input').fill('');
      await typeInChat(p, 'after');
      assert.equal(await p.getByTestId('chat-input').inputValue(), 'after', 'the app has the keyboard again');
    });
  });
});

describe('where the browser does not enforce it', () => {
  const s = focusSession('unenforced', []);

  test('the view says it could take the focus, and the app takes it back and stops the view', async (t) => {
    const p = pageOrSkip(t, skipReason, s.session?.page ?? null);
    if (!p) return;
    await e2eEvidence('mcp-apps-focus-unenforced', () => s.session).withEvidence(p, 'steal', async () => {
      const note = p.getByTestId('app-view-focus-note');
      await note.waitFor({ timeout: STEP });
      assert.match((await note.textContent()) ?? '', /keyboard focus/);
      await typeInChat(p, TYPED);
      await stopped(p).waitFor({ timeout: STEP });
      const caught = await p.getByTestId('chat-input').inputValue();
      console.log(`focus guard without the policy: the chat box got ${caught.length}/${TYPED.length} keys`);
      await p.getByTestId('chat-input').fill('');
      await typeInChat(p, TYPED);
      assert.equal(
        await p.getByTestId('chat-input').inputValue(),
        TYPED,
        'once stopped, every key reaches the app',
      );
    });
  });
});
