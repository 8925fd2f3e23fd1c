/**
 * A local electron-updater feed and a real electron-updater pointed at it, for the auto-update
 * tests. The feed is a 127.0.0.1 HTTP server (port 0) serving `latest*.yml` (version, size and
 * the real base64 sha512 of a generated "AppImage") and that file; `corrupt()` changes the
 * served bytes (same size) so the updater's sha512 check must refuse them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  configureRequestOptions,
  configureRequestUrl,
  HttpExecutor,
  type DownloadOptions,
} from 'builder-util-runtime';
import electronUpdater, { type AppImageUpdater } from 'electron-updater';

// A CommonJS getter: Node's ESM loader only offers it on the default export.
const { AppImageUpdater: AppImageUpdaterClass } = electronUpdater;

/** A running feed. */
export interface UpdateFeed {
  url: string;
  version: string;
  file: string;
  sha512: string;
  size: number;
  /** How many times an updater asked for the release metadata (one per check). */
  checks(): number;
  /** How many times the update file itself was fetched. */
  downloads(): number;
  /** From now on serve the file with one byte changed (the yml keeps the real sha512). */
  corrupt(): void;
  close(): Promise<void>;
}

/** Serve version `version` of a `size`-byte file with HTML release notes. */
export async function startUpdateFeed(version: string, size = 256 * 1024): Promise<UpdateFeed> {
  const bytes = randomBytes(size);
  const file = `MCP-Desk-${version}.AppImage`;
  const sha512 = createHash('sha512').update(bytes).digest('base64');
  // The shape electron-builder writes for a release (generic and GitHub providers read the same).
  const yml = [
    `version: ${version}`,
    'files:',
    `  - url: ${file}`,
    `    sha512: ${sha512}`,
    `    size: ${size}`,
    `path: ${file}`,
    `sha512: ${sha512}`,
    "releaseDate: '2026-01-15T10:00:00.000Z'",
    "releaseNotes: '<h2>What changed</h2><ul><li>Faster tool calls</li><li>Fixes &amp; polish</li></ul>'",
    '',
  ].join('\n');
  let served = bytes;
  let fetched = 0;
  let asked = 0;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.slice(1);
    // latest.yml (Windows), latest-mac.yml, latest-linux[-arch].yml: the same release everywhere.
    if (/^latest(-[a-z0-9-]+)?\.yml$/.test(path)) {
      asked++;
      res.writeHead(200, { 'content-type': 'text/yaml' }).end(yml);
    } else if (path === file) {
      fetched++;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': served.length });
      res.end(served);
    } else res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    version,
    file,
    sha512,
    size,
    checks: () => asked,
    downloads: () => fetched,
    corrupt: () => {
      served = Buffer.from(bytes);
      served[served.length >> 1] = (served[served.length >> 1] ?? 0) ^ 0xff;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * electron-updater's HTTP layer on Node's http instead of Chromium's `net` (which exists only
 * inside Electron): the same HttpExecutor base and the same `download` as its
 * ElectronHttpExecutor, so the streaming, the DigestTransform sha512 check and the error paths
 * are electron-updater's own; only the socket underneath differs.
 */
class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return httpRequest(options, callback);
  }

  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions: RequestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          callback: (error) => (error ? reject(error) : resolve(destination)),
          responseHandler: null,
        },
        0,
      );
    });
  }
}

/**
 * A real AppImageUpdater as a packaged app running `currentVersion` would have it: app-update.yml
 * (written the way electron-builder does, provider generic at the feed) in its resources
 * folder, its cache and user data under `dir`. Uses electron-updater's public AppAdapter
 * constructor argument, so `electron` itself is never required.
 */
export function localUpdater(feedUrl: string, dir: string, currentVersion: string): AppImageUpdater {
  mkdirSync(dir, { recursive: true });
  const configPath = join(dir, 'app-update.yml');
  writeFileSync(configPath, `provider: generic\nurl: ${feedUrl}\nupdaterCacheDirName: mcp-desk-updater\n`);
  const app = {
    version: currentVersion,
    name: 'MCP Desk',
    isPackaged: true,
    appUpdateConfigPath: configPath,
    userDataPath: join(dir, 'user-data'),
    baseCachePath: join(dir, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: () => undefined,
  };
  const updater = new AppImageUpdaterClass(null, app);
  Object.assign(updater, { httpExecutor: new NodeHttpExecutor() });
  // The running "AppImage" (its path is what an install would replace); no block-map delta.
  process.env.APPIMAGE = join(dir, 'MCP-Desk-current.AppImage');
  writeFileSync(process.env.APPIMAGE, 'old version');
  updater.disableDifferentialDownload = true;
  updater.logger = null;
  return updater;
}
