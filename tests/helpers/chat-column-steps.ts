// The steps the chat-column e2e files share: start, open and write in a chat in browser mode.
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';

const STEP = 30_000;

/** An answer of the model's that holds `t`. */
export const answer = (p: Page, t: string): Locator => p.getByTestId('assistant-text').filter({ hasText: t });
/** The conversation list's entries. */
export const items = (p: Page): Locator => p.locator('[data-testid^="conversation-item-"]');

/** Starts a chat; returns its list entry's test id (the list re-orders as chats change). */
export async function newChat(p: Page): Promise<string> {
  await p.setViewportSize({ width: 1300, height: 860 });
  const before = await items(p).count();
  await p.getByTestId('new-chat').click();
  await items(p).nth(before).waitFor({ timeout: STEP });
  const id = await p.locator('.conversation-item.selected').getAttribute('data-testid');
  assert.ok(id, 'the new chat is the selected one');
  return id;
}

/** Opens the chat whose list entry has the test id `id`. */
export async function openChat(p: Page, id: string): Promise<void> {
  await p.getByTestId(id).locator('.conversation-select').click();
  await p.locator(`.conversation-item.selected[data-testid="${id}"]`).waitFor();
}

/** Sends `message` from the composer and waits for its bubble. */
export async function send(p: Page, message: string): Promise<void> {
  await p.getByTestId('chat-input').fill(message);
  await p.getByTestId('chat-input').press('Enter');
  await p.getByTestId('message-user').filter({ hasText: message }).waitFor({ timeout: STEP });
}
