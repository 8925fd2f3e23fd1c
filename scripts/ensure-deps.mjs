// Lets the README's two commands (`npm start`, `npm test`) work on a fresh clone: when
// node_modules was never installed, install it from the lockfile first. Never re-installs an
// existing tree (that is `npm ci`'s job, and would disturb a developer's node_modules).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Runs `npm ci` in `root` if its node_modules is missing; exits the process if that fails. */
export function ensureDependencies(root) {
  // npm writes this file at the end of every successful install.
  if (existsSync(path.join(root, 'node_modules', '.package-lock.json'))) return;
  console.log('setup: node_modules is missing; running npm ci (Electron and browser downloads skipped)');
  const result = spawnSync(
    process.platform === 'win32' ? 'npm.cmd' : 'npm',
    ['ci', '--no-audit', '--no-fund'],
    {
      cwd: root,
      stdio: 'inherit',
      shell: process.platform === 'win32',
      // Those binaries come from CDNs that not every machine reaches; the app and tests fall
      // back (browser mode, skipped Electron tests) when they are absent.
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    },
  );
  if (result.status !== 0) {
    console.error('setup: npm ci failed; fix the error above and run it again');
    process.exit(1);
  }
}
