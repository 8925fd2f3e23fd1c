/**
 * Issue 14 item 1: where each of the ten hosts keeps its servers on Linux, macOS and Windows
 * (Windows paths with backslashes wherever the test runs), and the environment overrides
 * (XDG_CONFIG_HOME, APPDATA, CODEX_HOME, CLAUDE_CONFIG_DIR) they honour.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IMPORT_HOST_IDS } from '../../shared/domain/imports.js';
import { IMPORTERS, importerFor } from '../../electron/host/importers/index.js';
import type { ImportContext } from '../../electron/host/importers/importer.js';

const linux: ImportContext = { platform: 'linux', home: '/home/ann', env: {}, projectDir: '/home/ann/app' };
const mac: ImportContext = { platform: 'darwin', home: '/Users/ann', env: {}, projectDir: '/Users/ann/app' };
const win: ImportContext = {
  platform: 'win32',
  home: 'C:\\Users\\ann',
  env: { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' },
  projectDir: 'C:\\Users\\ann\\app',
};

/** Every host's files on one system, as `scope path` lines. */
function paths(ctx: ImportContext): Record<string, string[]> {
  return Object.fromEntries(IMPORTERS.map((i) => [i.id, i.files(ctx).map((f) => `${f.scope} ${f.path}`)]));
}

describe('importer registry', () => {
  it("lists the ten hosts in the issue's order, each findable by id", () => {
    assert.deepEqual(
      IMPORTERS.map((i) => i.id),
      [...IMPORT_HOST_IDS],
    );
    for (const id of IMPORT_HOST_IDS) assert.equal(importerFor(id)?.id, id);
  });
});

describe('importer files per system', () => {
  it('Linux', () => {
    assert.deepEqual(paths(linux), {
      'claude-desktop': ['user /home/ann/.config/Claude/claude_desktop_config.json'],
      'claude-code': ['user /home/ann/.claude.json', 'project /home/ann/app/.mcp.json'],
      vscode: [
        'user /home/ann/.config/Code/User/mcp.json',
        'user /home/ann/.config/Code/User/settings.json',
        'user /home/ann/.config/Code - Insiders/User/mcp.json',
        'user /home/ann/.config/Code - Insiders/User/settings.json',
        'project /home/ann/app/.vscode/mcp.json',
      ],
      cursor: ['user /home/ann/.cursor/mcp.json', 'project /home/ann/app/.cursor/mcp.json'],
      windsurf: ['user /home/ann/.codeium/windsurf/mcp_config.json'],
      'gemini-cli': ['user /home/ann/.gemini/settings.json', 'project /home/ann/app/.gemini/settings.json'],
      zed: ['user /home/ann/.config/zed/settings.json', 'project /home/ann/app/.zed/settings.json'],
      goose: ['user /home/ann/.config/goose/config.yaml'],
      codex: ['user /home/ann/.codex/config.toml', 'project /home/ann/app/.codex/config.toml'],
      'lm-studio': ['user /home/ann/.lmstudio/mcp.json', 'user /home/ann/.cache/lm-studio/mcp.json'],
    });
  });

  it('macOS', () => {
    const support = '/Users/ann/Library/Application Support';
    assert.deepEqual(paths(mac), {
      'claude-desktop': [`user ${support}/Claude/claude_desktop_config.json`],
      'claude-code': ['user /Users/ann/.claude.json', 'project /Users/ann/app/.mcp.json'],
      vscode: [
        `user ${support}/Code/User/mcp.json`,
        `user ${support}/Code/User/settings.json`,
        `user ${support}/Code - Insiders/User/mcp.json`,
        `user ${support}/Code - Insiders/User/settings.json`,
        'project /Users/ann/app/.vscode/mcp.json',
      ],
      cursor: ['user /Users/ann/.cursor/mcp.json', 'project /Users/ann/app/.cursor/mcp.json'],
      windsurf: ['user /Users/ann/.codeium/windsurf/mcp_config.json'],
      'gemini-cli': ['user /Users/ann/.gemini/settings.json', 'project /Users/ann/app/.gemini/settings.json'],
      zed: ['user /Users/ann/.config/zed/settings.json', 'project /Users/ann/app/.zed/settings.json'],
      goose: ['user /Users/ann/.config/goose/config.yaml'],
      codex: ['user /Users/ann/.codex/config.toml', 'project /Users/ann/app/.codex/config.toml'],
      'lm-studio': ['user /Users/ann/.lmstudio/mcp.json', 'user /Users/ann/.cache/lm-studio/mcp.json'],
    });
  });

  it('Windows', () => {
    const roaming = 'C:\\Users\\ann\\AppData\\Roaming';
    assert.deepEqual(paths(win), {
      'claude-desktop': [`user ${roaming}\\Claude\\claude_desktop_config.json`],
      'claude-code': ['user C:\\Users\\ann\\.claude.json', 'project C:\\Users\\ann\\app\\.mcp.json'],
      vscode: [
        `user ${roaming}\\Code\\User\\mcp.json`,
        `user ${roaming}\\Code\\User\\settings.json`,
        `user ${roaming}\\Code - Insiders\\User\\mcp.json`,
        `user ${roaming}\\Code - Insiders\\User\\settings.json`,
        'project C:\\Users\\ann\\app\\.vscode\\mcp.json',
      ],
      cursor: ['user C:\\Users\\ann\\.cursor\\mcp.json', 'project C:\\Users\\ann\\app\\.cursor\\mcp.json'],
      windsurf: ['user C:\\Users\\ann\\.codeium\\windsurf\\mcp_config.json'],
      'gemini-cli': [
        'user C:\\Users\\ann\\.gemini\\settings.json',
        'project C:\\Users\\ann\\app\\.gemini\\settings.json',
      ],
      zed: [`user ${roaming}\\Zed\\settings.json`, 'project C:\\Users\\ann\\app\\.zed\\settings.json'],
      goose: [`user ${roaming}\\Block\\goose\\config\\config.yaml`],
      codex: ['user C:\\Users\\ann\\.codex\\config.toml', 'project C:\\Users\\ann\\app\\.codex\\config.toml'],
      'lm-studio': ['user C:\\Users\\ann\\.lmstudio\\mcp.json'],
    });
  });

  it('honours XDG_CONFIG_HOME, APPDATA being unset, CODEX_HOME and CLAUDE_CONFIG_DIR', () => {
    const xdg = paths({ ...linux, env: { XDG_CONFIG_HOME: '/xdg' }, projectDir: undefined });
    assert.deepEqual(xdg['claude-desktop'], ['user /xdg/Claude/claude_desktop_config.json']);
    assert.deepEqual(xdg.zed, ['user /xdg/zed/settings.json']);
    assert.deepEqual(xdg.goose, ['user /xdg/goose/config.yaml']);
    assert.equal(xdg.vscode?.[0], 'user /xdg/Code/User/mcp.json');
    const noAppData = paths({ ...win, env: {} });
    assert.deepEqual(noAppData['claude-desktop'], [
      'user C:\\Users\\ann\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    ]);
    const moved = paths({ ...linux, env: { CODEX_HOME: '/opt/codex', CLAUDE_CONFIG_DIR: '/opt/claude' } });
    assert.equal(moved.codex?.[0], 'user /opt/codex/config.toml');
    assert.equal(moved['claude-code']?.[0], 'user /opt/claude/.claude.json');
  });

  it('gives user files the home folder and project files the project folder for their variables', () => {
    for (const importer of IMPORTERS) {
      for (const file of importer.files(win)) {
        assert.equal(file.home, win.home, `${importer.id} ${file.path}`);
        assert.equal(file.workspaceFolder, file.scope === 'project' ? win.projectDir : undefined);
      }
    }
  });
});
