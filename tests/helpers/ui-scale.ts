// What the virtualised-UI e2e test and the UI bench share: a config of many-tools fixture servers,
// a long conversation seeded into browser mode's conversation store before the page asks for it,
// the built renderer's entry chunks (from out/renderer/index.html), and a request recorder.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from './browser-mode.js';

/** The fixture that lists TOOL_COUNT tools. */
export const MANY_TOOLS_SERVER = join(repoRoot, 'tests', 'fixtures', 'many-tools-server.mjs');

/** The built renderer. */
export const RENDERER_DIR = join(repoRoot, 'out', 'renderer');

/** A config with `servers` many-tools servers (`many-01`…) of `perServer` tools each. */
export function manyToolsConfig(servers: number, perServer: number): { mcpServers: Record<string, unknown> } {
  const mcpServers: Record<string, unknown> = {};
  for (let i = 1; i <= servers; i++) {
    mcpServers[`many-${String(i).padStart(2, '0')}`] = {
      command: process.execPath,
      args: [MANY_TOOLS_SERVER],
      env: { TOOL_COUNT: String(perServer) },
    };
  }
  return { mcpServers };
}

/** The ids of every seeded message: `m0001`… */
export const messageId = (n: number): string => `m${String(n).padStart(4, '0')}`;

/** The words of seeded message `n` (1-based), unique so a test can find each one. */
export function messageText(n: number, count: number): string {
  if (n === 1) return 'The very first message of the long conversation.';
  if (n === count) return `The last message of the long conversation (${count}).`;
  // Replies vary in height (lists, code) so the thread has to measure, not assume.
  if (n % 2 === 1) return `Question ${n}: ${'why '.repeat(n % 17)}?`;
  if (n % 10 === 0)
    return `Answer ${n} with **bold**, a list:\n\n- one\n- two\n\n\`\`\`ts\nconst n = ${n};\n\`\`\``;
  return `Answer ${n}. ${'Some words that wrap. '.repeat(n % 23)}`;
}

/**
 * Writes conversations into browser mode's store (`<data>/conversations/<id>.json`, see
 * electron/host/stores/file-conversation-store.ts). The store reads the folder on first use,
 * so this works after browser mode started as long as no page has loaded yet.
 */
export function seedConversation(
  configPath: string,
  conv: { id: string; title: string; updatedAt: number; messages: number; lastRole?: 'user' | 'assistant' },
): void {
  const dir = join(dirname(configPath), 'data', 'conversations');
  mkdirSync(dir, { recursive: true });
  const messages = Array.from({ length: conv.messages }, (_, i) => {
    const n = i + 1;
    const role = (conv.messages - n) % 2 === 0 ? (conv.lastRole ?? 'assistant') : other(conv.lastRole);
    return {
      id: messageId(n),
      role,
      parts: [{ type: 'text', text: messageText(n, conv.messages) }],
      createdAt: conv.updatedAt - (conv.messages - n) * 1000,
      ...(role === 'assistant' ? { model: 'fixture-model' } : {}),
    };
  });
  const body = {
    id: conv.id,
    title: conv.title,
    createdAt: conv.updatedAt - 1,
    updatedAt: conv.updatedAt,
    messages,
  };
  writeFileSync(join(dir, `${conv.id}.json`), JSON.stringify(body));
}

function other(role: 'user' | 'assistant' | undefined): 'user' | 'assistant' {
  return role === 'user' ? 'assistant' : 'user';
}

/** The JS files index.html loads (its module script and modulepreloads), as /assets/… paths. */
export function entryChunks(): string[] {
  const html = readFileSync(join(RENDERER_DIR, 'index.html'), 'utf8');
  const found = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) => `/${m[1]}`);
  if (found.length === 0) throw new Error('out/renderer/index.html loads no JS: build the renderer first');
  return found;
}

/** Records the path of every JS file the page fetches from its own origin. */
export function recordScripts(page: Page): { paths: string[] } {
  const record = { paths: [] as string[] };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('.js')) record.paths.push(url.pathname);
  });
  return record;
}

/**
 * Installs the render probe (renderer/lib/render-probe.ts) before the page's scripts run:
 * `window.__renders` counts renders per `component:id`. A string, not a function: tsx would
 * wrap a function in helpers that do not exist in the page.
 */
export async function installRenderProbe(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    const counts = {};
    window.__renders = counts;
    window.__mcpDeskRenderProbe = (component, id) => {
      const key = component + ':' + id;
      counts[key] = (counts[key] ?? 0) + 1;
    };
  })()`);
}

/** The probe's counts so far, and resets them. */
export function takeRenderCounts(page: Page): Promise<Record<string, number>> {
  return page.evaluate<Record<string, number>>(`(() => {
    const counts = window.__renders;
    const copy = { ...counts };
    for (const k of Object.keys(counts)) delete counts[k];
    return copy;
  })()`);
}
