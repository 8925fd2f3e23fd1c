// One browser e2e file's world: a fake Gemini when the file needs a model, browser mode with the
// file's servers and a keychain service of its own, Chromium with one page; its screenshots and
// failure evidence; and taking it all down again, the Gemini key included if the file stored one.
// Files that split one flow share this, so each starts the same world without copying it;
// `useE2eSession` also registers a file's before/after hooks for it.
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startFakeGemini, type FakeGemini, type FakeGeminiOptions } from '../fixtures/fake-gemini.js';
import { launchChromium, logPageErrors, saveScreenshot, withEvidence } from './chromium.js';
import { startBrowserMode, type BrowserMode } from './browser-mode.js';
import { removeStoredKey, saveKeyInSettings } from './e2e-app.js';

const CONNECT_TIMEOUT_MS = 60_000;

/** What a file's session starts. */
export interface E2eSessionOptions {
  /** The config document browser mode starts with. */
  config: unknown;
  viewport: { width: number; height: number };
  /** Start a fake Gemini with these options, and point browser mode's Gemini provider at it. */
  gemini?: FakeGeminiOptions;
  /** Open the page and wait until these servers are connected (default: leave the page blank). */
  connect?: readonly string[];
  /**
   * Open the page in a browser context of its own, whose permissions (the clipboard) can be
   * granted; default: `browser.newPage()`'s implicit context.
   */
  ownContext?: boolean;
  /** The keychain service browser mode keeps secrets under (default: a fresh random one). */
  keychainService?: string;
  /** Chromium flags beyond the suite's (e.g. a Blink feature the test needs on), maybe naming browser mode's address. */
  chromiumArgs?: readonly string[] | ((mode: BrowserMode) => readonly string[]);
  /** How long browser mode may take to print its URL (default 20 s; many servers start slower). */
  startTimeoutMs?: number;
  /** Browser mode's whole environment (default: this process's), e.g. one without a Secret Service. */
  env?: NodeJS.ProcessEnv;
}

/** A running session; `stop()` takes it down. */
export interface E2eSession {
  gemini: FakeGemini | null;
  mode: BrowserMode;
  browser: Browser;
  page: Page;
  /** Stores the fake Gemini's key through Settings, once per session. */
  storeKey(p: Page): Promise<void>;
  /** Tells the session a key was saved some other way, so `stop()` removes it. */
  keyStored(): void;
  /** Removes a key the session stored, closes Chromium, stops browser mode and the fake. */
  stop(): Promise<void>;
}

/** Opens browser mode's page and waits until each of `servers` is connected. */
export async function openConnected(p: Page, url: string, servers: readonly string[]): Promise<void> {
  await p.goto(url);
  await p.getByTestId('nav-servers').click();
  for (const id of servers) {
    await p
      .locator(`[data-testid="server-state-${id}"][data-state="connected"]`)
      .waitFor({ timeout: CONNECT_TIMEOUT_MS });
  }
}

/** Starts a session; whatever started before a failure is stopped again. */
export async function startE2eSession(options: E2eSessionOptions): Promise<E2eSession> {
  let gemini: FakeGemini | null = null;
  let mode: BrowserMode | null = null;
  let browser: Browser | null = null;
  let page: Page | null = null;
  let storedKey = false;

  const stop = async (): Promise<void> => {
    if (page && !page.isClosed() && storedKey) {
      const p = page;
      await p
        .getByTestId('nav-chat')
        .click()
        .then(() => removeStoredKey(p))
        .catch(() => undefined);
    }
    await browser?.close();
    await mode?.stop();
    await gemini?.close();
  };

  try {
    if (options.gemini) {
      gemini = await startFakeGemini(options.gemini);
      // The browser-mode child inherits this process's environment.
      process.env.MCP_DESK_GEMINI_BASE_URL = gemini.baseUrl;
    }
    // Keychain entries stay apart from a person's real ones.
    process.env.MCP_DESK_KEYCHAIN_SERVICE =
      options.keychainService ?? `MCP Desk e2e ${randomBytes(6).toString('hex')}`;
    mode = await startBrowserMode({
      config: options.config,
      ...(options.startTimeoutMs ? { startTimeoutMs: options.startTimeoutMs } : {}),
      ...(options.env
        ? { env: { ...options.env, MCP_DESK_KEYCHAIN_SERVICE: process.env.MCP_DESK_KEYCHAIN_SERVICE } }
        : {}),
    });
    browser = await launchChromium(
      typeof options.chromiumArgs === 'function' ? options.chromiumArgs(mode) : options.chromiumArgs,
    );
    page = options.ownContext
      ? await (await browser.newContext({ viewport: options.viewport })).newPage()
      : await browser.newPage({ viewport: options.viewport });
    logPageErrors(page);
    if (options.connect) await openConnected(page, mode.url, options.connect);
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }

  const apiKey = options.gemini?.apiKey;
  return {
    gemini,
    mode,
    browser,
    page,
    async storeKey(p) {
      if (storedKey) return;
      if (!apiKey) throw new Error('this session has no fake Gemini, so no key to store');
      await saveKeyInSettings(p, apiKey, () => (storedKey = true));
    },
    keyStored() {
      storedKey = true;
    },
    stop,
  };
}

/** A file's screenshot and failure-evidence helpers, naming everything `<prefix>-<name>`. */
export interface E2eEvidence {
  /** Saves test-results/e2e/<prefix>-<name>.png. */
  shot: (p: Page, name: string) => Promise<void>;
  /** Runs `steps`; on failure keeps a screenshot and prints browser mode's and the fake's logs. */
  withEvidence: (p: Page, name: string, steps: () => Promise<void>) => Promise<void>;
}

/** Evidence helpers for the file whose screenshots start with `prefix`. */
export function e2eEvidence(prefix: string, session: () => E2eSession | null): E2eEvidence {
  return {
    shot: (p, name) => saveScreenshot(p, `${prefix}-${name}`),
    withEvidence: (p, name, steps) =>
      withEvidence(
        p,
        `${prefix}-${name}`,
        steps,
        () => {
          const mode = session()?.mode;
          return mode && `browser mode output:\n${mode.output()}`;
        },
        () => {
          const gemini = session()?.gemini;
          return (
            gemini && `fake Gemini saw: ${gemini.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`
          );
        },
      ),
  };
}

/** What `useE2eSession` starts: the session's options, and how the file names and readies it. */
export interface E2eFileOptions extends E2eSessionOptions {
  /** How the file's skip line names it: `<name> e2e skipped: <reason>`. */
  name: string;
  /** Screenshots are named `<prefix>-<shot>` (default: `name`). */
  prefix?: string;
  /** Why this machine cannot run the file, or null; when set, nothing starts. */
  skipReason: string | null;
  /** Runs once the session is up, still in `before` (store the key, grant a permission...). */
  ready?: (session: E2eSession) => Promise<void>;
}

/** A file's session as its tests reach it: the parts are null until `before` has started them. */
export interface E2eFile extends E2eEvidence {
  readonly session: E2eSession | null;
  readonly gemini: FakeGemini | null;
  readonly mode: BrowserMode | null;
  readonly page: Page | null;
}

/**
 * Registers the file's `before` (start its session and ready it, or log why it is skipped) and
 * `after` (stop it: the stored key, Chromium, browser mode, the fake Gemini).
 */
export function useE2eSession(options: E2eFileOptions): E2eFile {
  let session: E2eSession | null = null;
  before(async () => {
    if (options.skipReason) {
      console.log(`${options.name} e2e skipped: ${options.skipReason}`);
      return;
    }
    session = await startE2eSession(options);
    await options.ready?.(session);
  });
  after(() => session?.stop());
  return {
    ...e2eEvidence(options.prefix ?? options.name, () => session),
    get session() {
      return session;
    },
    get gemini() {
      return session?.gemini ?? null;
    },
    get mode() {
      return session?.mode ?? null;
    },
    get page() {
      return session?.page ?? null;
    },
  };
}
