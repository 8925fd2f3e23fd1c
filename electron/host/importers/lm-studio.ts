import { parseJsonFile, serverMapAt, userFile, type HostImporter } from './importer.js';
import { readJsonServers } from './json-servers.js';
import { cursorStyle } from './cursor.js';

/**
 * LM Studio (docs: lmstudio.ai/docs/app/mcp): one `mcp.json` that "follows Cursor's mcp.json
 * notation", in `~/.lmstudio/` (Windows `%USERPROFILE%\.lmstudio\`). A bug report
 * (lmstudio-ai/lmstudio-bug-tracker#1371) finds it in `~/.cache/lm-studio/` on some macOS
 * installs, where older versions kept their home; that second place is not from the docs.
 */
export const lmStudio: HostImporter = {
  id: 'lm-studio',
  label: 'LM Studio',
  files(ctx) {
    const documented = userFile(ctx, ctx.home, '.lmstudio', 'mcp.json');
    if (ctx.platform === 'win32') return [documented];
    return [documented, userFile(ctx, ctx.home, '.cache', 'lm-studio', 'mcp.json')];
  },
  parse(text, file) {
    return readJsonServers(serverMapAt(parseJsonFile(text), 'mcpServers'), file, cursorStyle);
  },
};
