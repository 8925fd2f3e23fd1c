#!/usr/bin/env node
// `npm run dist [-- electron-builder args]`: the installers for this OS (or the targets passed,
// e.g. `-- --mac dmg --x64 --arm64 --publish always` in release.yml) into dist/.
//   1. Electron's release zip for this platform must be in @electron/get's cache or downloadable:
//      electron-builder packages that zip, not node_modules/electron. If it cannot be had, print
//      ONE line saying so and exit 1 (no stack trace): the normal case on a machine without
//      network to github.com. ELECTRON_MIRROR and electron_config_cache are honoured.
//   2. The icons (scripts/make-icons.mjs, from the tray's drawing), then scripts/build.mjs.
//   3. electron-builder with build/electron-builder.yml. The GitHub repository for the publish
//      block (and the update feed baked into the app) comes from MCP_DESK_RELEASE_OWNER/_REPO,
//      else GITHUB_REPOSITORY (set in Actions), else the git origin, else mcp-desk/mcp-desk.
// MCP_DESK_DIST_DOWNLOAD_TIMEOUT_MS bounds step 1 (default 120000).
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const timeoutMs = Number(process.env.MCP_DESK_DIST_DOWNLOAD_TIMEOUT_MS ?? 120_000);

/** Prints one line and exits non-zero: the only way this script reports a failure. */
function fail(line) {
  console.error(`dist: ${line}`);
  process.exit(1);
}

/** The first line of an error's message: never its stack. */
function firstLine(error) {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n').find((line) => line.trim().length > 0) ?? 'unknown error';
}

/** Resolves when Electron's zip for this platform is cached or downloaded (checksum-verified). */
async function ensureElectronZip() {
  const electronManifest = require.resolve('electron/package.json');
  const { version } = require(electronManifest);
  const label = `Electron ${version} for ${process.platform}-${process.arch}`;
  // @electron/get is electron's own downloader (and electron-builder's): resolved from electron
  // so it is the version electron's checksums.json belongs to.
  const fromElectron = createRequire(electronManifest);
  const get = await import(pathToFileURL(fromElectron.resolve('@electron/get')).href);
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    await Promise.race([
      get.downloadArtifact({
        version,
        artifactName: 'electron',
        platform: process.platform,
        arch: process.arch,
        cacheRoot: process.env.electron_config_cache,
        checksums: fromElectron('./checksums.json'),
      }),
      timeout,
    ]);
  } catch (error) {
    fail(
      `cannot download the Electron binary (${label}): ${firstLine(error)}; ` +
        'building installers needs network access to github.com or an ELECTRON_MIRROR',
    );
  } finally {
    clearTimeout(timer);
  }
}

/** owner/repo of the GitHub repository releases are published to and updates read from. */
function releaseRepository() {
  const fromEnv = [process.env.MCP_DESK_RELEASE_OWNER, process.env.MCP_DESK_RELEASE_REPO];
  if (fromEnv.every(Boolean)) return fromEnv;
  const fromActions = process.env.GITHUB_REPOSITORY?.split('/');
  if (fromActions?.length === 2) return fromActions;
  try {
    const origin = execFileSync('git', ['remote', 'get-url', 'origin'], { cwd: root, encoding: 'utf8' });
    const match = /github\.com[:/]([^/]+)\/([^/]+?)(?:\.git)?\s*$/.exec(origin);
    if (match) return [match[1], match[2]];
  } catch {
    // No git or no origin: the placeholder below.
  }
  console.log('dist: no GitHub repository found; publishing to (and updating from) mcp-desk/mcp-desk');
  return ['mcp-desk', 'mcp-desk'];
}

/** Runs a step with inherited output; a failed step ends the script with its own exit code. */
function step(args, env = process.env) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await ensureElectronZip();
step(['--import', 'tsx', path.join('scripts', 'make-icons.mjs')]);
step([path.join('scripts', 'build.mjs')]);

const [owner, repo] = releaseRepository();
const env = { ...process.env, MCP_DESK_RELEASE_OWNER: owner, MCP_DESK_RELEASE_REPO: repo };
// Repository secrets that are not set reach the workflow as empty strings; electron-builder
// would take an empty CSC_LINK for a certificate. Absent means unsigned.
const signing = ['CSC_LINK', 'CSC_KEY_PASSWORD', 'WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD'];
for (const name of [...signing, 'APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID']) {
  if (env[name] === '') delete env[name];
}
step(
  [
    path.join('node_modules', 'electron-builder', 'cli.js'),
    '--config',
    path.join('build', 'electron-builder.yml'),
    // The deb needs a homepage; package.json has none, the repository is the project's page.
    `-c.extraMetadata.homepage=https://github.com/${owner}/${repo}`,
    ...process.argv.slice(2),
  ],
  env,
);
