// Steps the MCP App e2e files share: start a new conversation whose model (the fake Gemini)
// calls an App tool, find a view's own document inside the sandbox proxy, open a tool in the
// Tools view, and wait for whichever of two things happens first.
import assert from 'node:assert/strict';
import type { Frame, Locator, Page } from 'playwright-core';
import { functionCall, reply, text, type FakeGemini } from '../fixtures/fake-gemini.js';

/** How long one step may take. */
export const STEP = 30_000;

/** A new conversation in which `message` is sent and shown. */
export async function sendInNewChat(p: Page, message: string): Promise<void> {
  await p.getByTestId('nav-chat').click();
  const before = await p.locator('[data-testid^="conversation-item-"]').count();
  await p.getByTestId('new-chat').click();
  await p.locator('[data-testid^="conversation-item-"]').nth(before).waitFor({ timeout: STEP });
  await p.getByTestId('chat-input').fill(message);
  await p.getByTestId('chat-input').press('Enter');
  await p.getByTestId('message-user').filter({ hasText: message }).waitFor({ timeout: STEP });
}

/**
 * A new conversation whose model calls `server`'s `tool`, then answers `answer` (null: the run is
 * stopped before it would, so nothing is left queued); resolves with the approval card it waits on.
 */
export async function modelCalls(
  p: Page,
  gemini: FakeGemini,
  server: string,
  tool: string,
  answer: string | null = `Called ${tool}.`,
): Promise<Locator> {
  gemini.enqueue(
    reply(functionCall(`${server}__${tool}`, {})),
    ...(answer === null ? [] : [reply(text(answer))]),
  );
  await sendInNewChat(p, `please call ${tool}`);
  const card = p.getByTestId('approval-card').filter({ hasText: tool }).first();
  await card.waitFor({ timeout: STEP });
  return card;
}

/** The tool card of `tool` in the open conversation, once it is `status`. */
export function toolCard(p: Page, tool: string, status: string): Locator {
  return p.locator(`[data-testid="tool-card"][data-status="${status}"]`).filter({ hasText: tool });
}

/** The view's own document: the proxy's inner frame `#view` inside the outer frame `viewId`. */
export async function viewDocument(p: Page, viewId: string): Promise<Frame> {
  const outer = `[data-testid="app-view-frame"][data-view-id="${viewId}"]`;
  await p.frameLocator(outer).locator('#view').waitFor({ timeout: STEP });
  const frame = await (await p.locator(outer).elementHandle())?.contentFrame();
  const inner = frame?.childFrames()[0];
  assert.ok(inner, 'the proxy built its inner frame');
  return inner;
}

/** The ready view inside `scope` (a tool card, the Tools view's detail): its id and document. */
export async function readyView(
  p: Page,
  scope: Locator,
): Promise<{ viewId: string; doc: Frame; view: Locator }> {
  const view = scope.getByTestId('app-view').and(p.locator('[data-state="ready"]'));
  await view.waitFor({ timeout: STEP });
  const viewId = (await scope.getByTestId('app-view-frame').getAttribute('data-view-id')) ?? '';
  return { viewId, doc: await viewDocument(p, viewId), view };
}

/**
 * Whether the approval card inside `scope` sits below the view's frame there. Both boxes come from
 * one layout: read one after the other, a view still resizing to its content moves in between.
 */
export function cardBelowView(scope: Locator): Promise<boolean> {
  return scope.evaluate((el) => {
    const frame = el.querySelector('[data-testid="app-view-frame"]');
    const card = el.querySelector('[data-testid="approval-card"]');
    if (!frame || !card) return false;
    return card.getBoundingClientRect().top >= frame.getBoundingClientRect().bottom - 1;
  });
}

/** Selects `server`'s `tool` in the Tools view and calls it with its default arguments. */
export async function callInTools(p: Page, server: string, tool: string): Promise<Locator> {
  await p.getByTestId('nav-tools').click();
  await p.getByTestId('tool-search').fill(tool);
  const item = p.getByTestId(`tool-item-${server}-${tool}`);
  await item.click();
  await item.and(p.locator('[aria-current="true"]')).waitFor({ timeout: STEP });
  const detail = p.getByTestId('tool-detail');
  await detail.getByTestId('call-tool').click();
  await detail.getByTestId('tool-result').waitFor({ timeout: STEP });
  return detail;
}

/**
 * Which of `outcomes` comes first (its name); the others are left to time out quietly. Proves a
 * negative without a sleep: the thing that must not happen races the thing that must.
 */
export function firstOf(outcomes: Record<string, Promise<unknown>>): Promise<string> {
  const entries = Object.entries(outcomes);
  return new Promise((resolve, reject) => {
    const errors: Error[] = [];
    for (const [name, done] of entries)
      done.then(
        () => resolve(name),
        (error: unknown) => {
          errors.push(error instanceof Error ? error : new Error(String(error)));
          if (errors.length === entries.length) reject(errors[0]);
        },
      );
  });
}

/** The rectangles of two locators overlap (a floating panel covering a button). */
export async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  assert.ok(x && y, 'both are on the page');
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}
