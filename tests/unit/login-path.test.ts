import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { mergePathLists } from '../../electron/host/connection/login-path.js';

test('path lists merge in order without duplicates or empties', () => {
  assert.equal(
    mergePathLists(['/a', '/b', ''].join(delimiter), ['/b', '/c'].join(delimiter), undefined),
    ['/a', '/b', '/c'].join(delimiter),
  );
});

test(
  "a GUI-launched app gets the login shell's PATH, even when start-up files print banners",
  { skip: process.platform === 'win32' ? 'Windows GUI apps inherit the user PATH' : false },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'login-path-'));
    const shell = join(dir, 'fake-shell');
    // Stands in for a login shell (`$SHELL -ilc CMD`) whose profile prints a banner and puts
    // nvm/Homebrew-like folders on PATH; a real /bin/sh would read this machine's own profile.
    await writeFile(
      shell,
      `#!/bin/sh\necho "Welcome banner"\nPATH="/opt/from-profile/bin:/usr/bin:/bin"\nexport PATH\neval "$2"\n`,
    );
    await chmod(shell, 0o755);
    const module = fileURLToPath(new URL('../../electron/host/connection/login-path.ts', import.meta.url));
    const script = `import(${JSON.stringify(module)}).then(async (m) => process.stdout.write(await m.resolveLoginPath()))`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', '-e', script],
        { env: { ...process.env, SHELL: shell, PATH: '/usr/bin:/bin' } },
        (e, stdout) => (e instanceof Error ? reject(e) : resolve(stdout)),
      ),
    );
    const parts = out.split(delimiter);
    assert.equal(parts[0], '/opt/from-profile/bin', out);
    assert.ok(parts.includes('/usr/bin'));
    assert.ok(!out.includes('Welcome'), 'the banner is not part of PATH');
  },
);
