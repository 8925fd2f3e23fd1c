import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { BWRAP_ISOLATION_FLAGS } from './sandbox-detector.js';
import type { SandboxLayout } from './sandbox-layout.js';
import { depthOf, isWithin, realOrUndefined } from './sandbox-paths.js';

/** Where a Linux system keeps the programs and libraries a server needs to run at all. */
const LINUX_SYSTEM_CANDIDATES = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/opt',
  '/nix/store',
  '/run/current-system',
];

/**
 * The system directories that exist here, plus the directory behind /etc/resolv.conf when
 * it points elsewhere (systemd-resolved): the network is shared, so name lookups must work.
 */
export function linuxSystemDirs(): string[] {
  const dirs = LINUX_SYSTEM_CANDIDATES.filter((d) => existsSync(d));
  const resolv = realOrUndefined('/etc/resolv.conf');
  if (resolv && !dirs.some((d) => isWithin(resolv, d))) dirs.push(dirname(resolv));
  return dirs;
}

type Mount = { depth: number; order: number; args: string[] };

/** How the sandbox treats the network: shared with the host, or a namespace of its own. */
export interface BwrapNetwork {
  /** True: an empty network namespace (only `lo`). */
  isolated: boolean;
  /** Host paths of Unix sockets made reachable inside (the network proxy's), at the same path. */
  sockets?: string[];
}

/**
 * bwrap's command line for a layout. Mounts are applied shallow first, so a deeper one lands
 * on top: a root inside the hidden home, or the package tree inside the private /tmp, stays
 * visible. Merged-/usr systems have /bin -> usr/bin: those become symlinks, not binds.
 */
export function bwrapArgs(
  layout: SandboxLayout,
  command: string,
  args: string[],
  network: BwrapNetwork = { isolated: false },
): string[] {
  const mounts: Mount[] = [];
  const add = (path: string, order: number, ...a: string[]) =>
    mounts.push({ depth: depthOf(path), order, args: a });
  for (const dir of layout.system) {
    const link = symlinkTarget(dir);
    if (link) add(dir, 0, '--symlink', link, dir);
    else add(dir, 0, '--ro-bind', dir, dir);
  }
  add('/dev', 1, '--dev', '/dev');
  add('/proc', 1, '--proc', '/proc');
  if (layout.dryRunTmp) add('/tmp', 1, '--bind', layout.dryRunTmp, '/tmp');
  else if (layout.privateTmp) add('/tmp', 1, '--tmpfs', '/tmp');
  for (const home of layout.hidden) add(home, 1, '--tmpfs', home);
  for (const path of layout.readOnly) add(path, 2, '--ro-bind', path, path);
  for (const path of network.sockets ?? []) add(path, 2, '--ro-bind', path, path);
  for (const path of layout.readWrite) add(path, 3, '--bind', path, path);
  // Same depth: tmpfs before binds, so a bind at the same place as a hidden home wins.
  mounts.sort((a, b) => a.depth - b.depth || a.order - b.order);
  // A dry run writes nowhere but its /tmp: an empty home stays empty. Last, since the deeper
  // mounts inside a home need their mount points made first.
  const remounts = layout.dryRunTmp ? layout.hidden.flatMap((home) => ['--remount-ro', home]) : [];
  return [
    ...mounts.flatMap((m) => m.args),
    ...remounts,
    ...BWRAP_ISOLATION_FLAGS,
    ...(network.isolated ? ['--unshare-net'] : []),
    '--chdir',
    layout.cwd,
    '--',
    command,
    ...args,
  ];
}

function symlinkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}
