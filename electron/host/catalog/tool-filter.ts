import type { ServerConfig } from '../../../shared/domain/server-config.js';

/** `includeTools`/`excludeTools` entries are names or simple globs (`*` wildcards). */
function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** Build the predicate that decides whether a server's tool is offered at all. */
export function toolFilter(config: ServerConfig): (name: string) => boolean {
  const include = config.includeTools?.map(globToRegExp);
  const exclude = config.excludeTools?.map(globToRegExp) ?? [];
  return (name) => (!include || include.some((r) => r.test(name))) && !exclude.some((r) => r.test(name));
}
