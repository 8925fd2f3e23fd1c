/**
 * Issue 14 item 1 / must-show 1: VS Code, gemini-cli and Zed, whose settings files are JSON with
 * comments, import their documented fixtures to the expected entries: VS Code inputs become
 * secrets to fill, gemini-cli's httpUrl/url pick the transport, Zed's three shapes all read, and
 * what has no place in MCP Desk is said.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { geminiCli } from '../../electron/host/importers/gemini-cli.js';
import { vscode } from '../../electron/host/importers/vscode.js';
import { zed } from '../../electron/host/importers/zed.js';
import { fileError, fileOf, fixture, parseFixture, PROJECT, server } from '../helpers/import-fixtures.js';

describe('VS Code importer', () => {
  const userMcp = fileOf(vscode, 'user', 'Code/User/mcp.json');

  it('turns ${input:…} into secrets to fill, with their descriptions', () => {
    const servers = parseFixture(vscode, userMcp, 'vscode', 'mcp.json');
    assert.deepEqual(server(servers, 'perplexity'), {
      name: 'perplexity',
      entry: {
        command: 'npx',
        args: ['-y', 'server-perplexity-ask', '--region', '${secret:region}'],
        env: { PERPLEXITY_API_KEY: '${secret:perplexity-key}', RETRIES: '3', HOME_DIR: '/home/ann' },
        sandbox: true,
      },
      notCarried: [
        'env.SHELL_VAR has no text value (null), so it is left out.',
        '"dev" is not carried over: development mode (watching files, attaching a debugger) is a VS Code feature.',
        '"envFile" (${workspaceFolder}/.env) uses a variable MCP Desk cannot fill in here, so it is not carried over.',
        '${input:region} is a pickString input, which MCP Desk cannot offer: enter the value after import.',
      ],
      inputs: [
        { secretName: 'region', from: 'args[3]', description: 'Which region' },
        { secretName: 'perplexity-key', from: 'env.PERPLEXITY_API_KEY', description: 'Perplexity API Key' },
      ],
    });
    // An input id our secret names refuse ("gh token") is made into one.
    assert.deepEqual(server(servers, 'github'), {
      name: 'github',
      entry: {
        type: 'http',
        url: 'https://api.githubcopilot.com/mcp/',
        headers: { Authorization: 'Bearer ${secret:gh_token}' },
      },
      notCarried: [],
      inputs: [{ secretName: 'gh_token', from: 'headers.Authorization', description: 'GitHub token' }],
    });
    assert.deepEqual(server(servers, 'slack').entry, {
      type: 'http',
      url: 'https://mcp.slack.com/mcp',
      oauth: { clientId: 'example-client-id' },
    });
    assert.deepEqual(server(servers, 'legacy-sse').entry, {
      type: 'sse',
      url: 'http://localhost:3001/sse',
      headers: { 'X-Env': '${env:DEPLOY_ENV}' },
    });
  });

  it("fills ${workspaceFolder}, its basename, a relative cwd and envFile in a workspace's .vscode/mcp.json", () => {
    const servers = parseFixture(
      vscode,
      fileOf(vscode, 'project'),
      'vscode',
      'project',
      '.vscode',
      'mcp.json',
    );
    assert.deepEqual(servers, [
      {
        name: 'workspace-files',
        entry: {
          command: 'node',
          args: [`${PROJECT}/tools/mcp.js`, '--name', 'app'],
          cwd: `${PROJECT}/tools`,
        },
        notCarried: [],
        inputs: [],
        envFile: `${PROJECT}/.env`,
      },
    ]);
  });

  it('reads the older "mcp" block of settings.json, and a settings.json without one as empty', () => {
    const settings = fileOf(vscode, 'user', 'Code/User/settings.json');
    const servers = parseFixture(vscode, settings, 'vscode', 'settings.json');
    assert.deepEqual(
      servers.map((s) => [s.name, s.entry]),
      [['memory', { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }]],
    );
    assert.deepEqual(vscode.parse(fixture('vscode', 'no-mcp-settings.json'), settings), []);
  });

  it('refuses bad JSONC and a wrong shape', () => {
    assert.equal(
      fileError(vscode, userMcp, fixture('vscode', 'bad-jsonc.json')),
      'not valid JSON: unexpected end of comment at line 3, column 34',
    );
    assert.equal(
      fileError(vscode, userMcp, fixture('vscode', 'wrong-shape.json')),
      '"servers" is missing or is not an object of servers',
    );
    assert.equal(fileError(vscode, userMcp, '{"servers": {}, "inputs": {}}'), '"inputs" is not a list');
  });
});

describe('gemini-cli importer', () => {
  it('maps httpUrl to HTTP and url to SSE, trust, tool filters, timeouts, oauth and $VAR', () => {
    const servers = parseFixture(geminiCli, fileOf(geminiCli, 'user'), 'gemini-cli', 'settings.json');
    assert.deepEqual(
      servers.map((s) => [s.name, s.entry]),
      [
        [
          'pythonTools',
          {
            command: 'python',
            args: ['-m', 'my_mcp_server', '--port', '8080'],
            cwd: './mcp-servers/python',
            env: { DATABASE_URL: '${env:DB_CONNECTION_STRING}', API_KEY: '${env:EXTERNAL_API_KEY}' },
            timeout: 15000,
            trust: 'trusted',
            includeTools: ['safe_tool', 'file_reader'],
          },
        ],
        [
          'httpServerWithAuth',
          {
            type: 'http',
            url: 'http://localhost:3000/mcp',
            headers: { Authorization: 'Bearer your-api-token' },
            timeout: 5000,
            excludeTools: ['dangerous_tool'],
          },
        ],
        ['sseServer', { type: 'sse', url: 'https://api.example.com/sse', trust: 'untrusted' }],
        ['typedHttp', { type: 'http', url: 'https://api.example.com/mcp' }],
        [
          'googleCloudServer',
          {
            type: 'http',
            url: 'https://my-gcp-service.run.app/mcp',
            oauth: { clientId: 'gcp-client', scope: 'https://www.googleapis.com/auth/userinfo.email openid' },
          },
        ],
        ['experimental', { command: 'node', args: ['exp.js'], disabled: true }],
      ],
    );
    assert.deepEqual(server(servers, 'pythonTools').notCarried, [
      'cwd "./mcp-servers/python" is relative to wherever the other app was started: check it after import.',
    ]);
    assert.deepEqual(server(servers, 'googleCloudServer').notCarried, [
      'oauth.redirectUri is not carried over: MCP Desk discovers sign-in endpoints and picks its own callback.',
      '"authProviderType" is not carried over: Google credentials and service-account sign-in are gemini-cli features.',
    ]);
    assert.deepEqual(server(servers, 'experimental').notCarried, [
      '"timeout" (50 ms) is outside what MCP Desk accepts (0.1 s to 1 hour), so the default timeout is used.',
    ]);
  });

  it("resolves a project's relative cwd and switches off servers mcp.allowed leaves out", () => {
    const servers = parseFixture(
      geminiCli,
      fileOf(geminiCli, 'project'),
      'gemini-cli',
      'project',
      '.gemini',
      'settings.json',
    );
    assert.deepEqual(
      servers.map((s) => [s.name, s.entry]),
      [
        [
          'nodeServer',
          {
            command: 'node',
            args: ['dist/server.js', '--verbose'],
            cwd: `${PROJECT}/mcp-servers/node`,
            trust: 'trusted',
          },
        ],
        ['notAllowed', { command: 'node', args: ['other.js'], disabled: true }],
      ],
    );
  });

  it('reads settings without servers as none, and refuses a wrong mcp block', () => {
    assert.deepEqual(geminiCli.parse('{"theme": "GitHub"}', fileOf(geminiCli, 'user')), []);
    assert.equal(
      fileError(geminiCli, fileOf(geminiCli, 'user'), fixture('gemini-cli', 'wrong-shape.json')),
      '"mcp.excluded" is not a list of server names',
    );
  });
});

describe('Zed importer', () => {
  it('reads the current, "source": "custom" and nested-command shapes, remote servers and enabled: false', () => {
    const servers = parseFixture(zed, fileOf(zed, 'user'), 'zed', 'settings.json');
    assert.deepEqual(
      servers.slice(0, 4).map((s) => [s.name, s.entry, s.notCarried]),
      [
        [
          'your-mcp-server',
          {
            command: 'some-command',
            args: ['arg-1', 'arg-2'],
            env: { TOKEN: 'zed-fixture-token' },
            timeout: 90000,
          },
          [],
        ],
        ['custom-source', { command: 'uvx', args: ['mcp-server-git'], env: {}, disabled: true }, []],
        [
          'my-context-server',
          { command: '/path/to/my-context-server', args: ['run'], env: {} },
          [
            '"settings" is not carried over: settings for a Zed extension have no meaning to the server itself.',
          ],
        ],
        [
          'remote',
          {
            type: 'http',
            url: 'https://mcp.example.com/mcp',
            headers: { Authorization: 'Bearer zed-remote-token' },
          },
          [],
        ],
      ],
    );
  });

  it('names the servers a Zed extension provides as ones it cannot bring over', () => {
    const servers = zed.parse(fixture('zed', 'settings.json'), fileOf(zed, 'user'));
    const why =
      "It is provided by a Zed extension, which holds its command: add it from the server's own instructions.";
    for (const name of ['postgres-context-server', 'github-ext']) {
      assert.equal(server(servers, name).unsupported, why);
      assert.deepEqual(server(servers, name).notCarried, [why]);
    }
  });

  it('refuses a wrong shape and reads settings without context_servers as none', () => {
    assert.equal(
      fileError(zed, fileOf(zed, 'user'), fixture('zed', 'wrong-shape.json')),
      '"context_servers" is not an object of servers',
    );
    assert.deepEqual(zed.parse('// nothing yet\n{}', fileOf(zed, 'user')), []);
  });
});
