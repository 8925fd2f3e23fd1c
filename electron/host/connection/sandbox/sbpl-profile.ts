import type { SandboxLayout } from './sandbox-layout.js';

/** What every macOS process reads to start: the OS, its libraries, the Homebrew/MacPorts trees. */
export const MACOS_SYSTEM_DIRS = [
  '/usr',
  '/bin',
  '/sbin',
  '/System',
  '/Library',
  '/private/etc',
  '/private/var/db/timezone',
  '/private/var/select',
  '/opt',
  '/dev',
];

/**
 * A sandbox-exec (Seatbelt) profile for a layout: deny by default; allow running programs,
 * reading the system and the runtime, and reading and writing the roots and a private temp
 * directory. Metadata reads (stat) are allowed everywhere because path resolution and
 * Node's module loader stat every ancestor; file contents outside the list stay denied.
 * The network is allowed unless `noNetwork` (a dry run, or the rule `none`).
 */
export function sbplProfile(layout: SandboxLayout, privateTmp: string, noNetwork = false): string {
  const sub = (paths: string[]) => paths.map((p) => `(subpath ${quote(p)})`).join(' ');
  return [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm ipc-posix-sem)',
    ...(noNetwork ? [] : ['(allow network*)']),
    '(allow file-read-metadata)',
    `(allow file-read* (literal "/") ${sub([...layout.system, ...layout.readOnly])})`,
    '(allow file-write* (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))',
    `(allow file-read* file-write* ${sub([...layout.readWrite, privateTmp])})`,
    '',
  ].join('\n');
}

/** An SBPL string literal; control characters cannot be written safely, so they are refused. */
function quote(path: string): string {
  if (hasControlCharacter(path))
    throw new Error(`cannot sandbox a path with control characters: ${JSON.stringify(path)}`);
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Any UTF-16 unit below 0x20 (a regex range over control characters reads as a typo to lint). */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x20) return true;
  return false;
}
