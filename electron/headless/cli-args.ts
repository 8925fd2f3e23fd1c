/** Parsed command line: options may stand before or after the subcommand. */
export interface CliArgs {
  command?: string;
  positionals: string[];
  config?: string;
  json: boolean;
  /** metrics: the Prometheus text format. */
  prometheus: boolean;
  /** metrics: start counting from zero. */
  reset: boolean;
  port?: number;
  open: boolean;
  timeoutMs?: number;
  help: boolean;
  version: boolean;
  model?: string;
  baseUrl?: string;
  yes: boolean;
  /** ask: with --yes, also allow calls the flow guard holds (untrusted content came before them). */
  allowFlows: boolean;
  /** How to answer a server's elicitation without a person (absent: cancel with a note). */
  elicitation?: ElicitationAnswer;
  /** How to answer a server's sampling request without a person (absent: deny with a note). */
  sampling?: SamplingAnswer;
  /** Folders shared with servers for this run (`--root`, repeatable), as typed. */
  roots: string[];
  /** app: the folder the view, its CSP and the tool result are written to. */
  out?: string;
  /** install: values as `KEY=VALUE` (`--set`, repeatable), as typed: a bundle's user_config, a link's inputs. */
  sets: string[];
  /** import: list the hosts found. */
  list: boolean;
  /** import: the host to import from. */
  from?: string;
  /** import: say what would be imported, change nothing. */
  dryRun: boolean;
  /** import: a project folder whose own config files are read too (besides the working directory). */
  project?: string;
  /** export: the format. */
  to?: string;
  /** export: the servers (`--server`, repeatable; none means all). */
  servers: string[];
  /** tools: rank tools for this text instead of listing them all. */
  search?: string;
  /** tools --search: how many ranked tools to print. */
  limit?: number;
  /** offer: a file with one prompt per line. */
  prompts?: string;
}

/** Headless answers to elicitation requests. */
export type ElicitationAnswer = 'accept-defaults' | 'decline' | 'cancel';
const ELICITATION_ANSWERS: readonly ElicitationAnswer[] = ['accept-defaults', 'decline', 'cancel'];

/** Headless answers to sampling requests. */
export type SamplingAnswer = 'approve' | 'deny';
const SAMPLING_ANSWERS: readonly SamplingAnswer[] = ['approve', 'deny'];

const VALUE_OPTIONS = new Set([
  '--config',
  '--port',
  '--timeout',
  '--model',
  '--base-url',
  '--elicitation',
  '--sampling',
  '--root',
  '--out',
  '--set',
  '--from',
  '--project',
  '--to',
  '--server',
  '--search',
  '--limit',
  '--prompts',
]);

/** Parse argv (without node and script). Throws a one-line message on bad input. */
export function parseCliArgs(argv: string[]): CliArgs {
  const out: CliArgs = {
    positionals: [],
    json: false,
    prometheus: false,
    reset: false,
    open: true,
    help: false,
    version: false,
    yes: false,
    allowFlows: false,
    roots: [],
    sets: [],
    list: false,
    dryRun: false,
    servers: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i];
    if (raw === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (raw.startsWith('--')) {
      const eq = raw.indexOf('=');
      const name = eq > 0 ? raw.slice(0, eq) : raw;
      let value: string | undefined = eq > 0 ? raw.slice(eq + 1) : undefined;
      if (VALUE_OPTIONS.has(name) && value === undefined) {
        value = argv[++i];
        if (value === undefined) throw new Error(`${name} needs a value`);
      }
      switch (name) {
        case '--config':
          out.config = value;
          break;
        case '--port':
          out.port = toInt(name, value);
          break;
        case '--timeout':
          out.timeoutMs = toInt(name, value);
          break;
        case '--model':
          out.model = value;
          break;
        case '--base-url':
          out.baseUrl = value;
          break;
        case '--elicitation':
          if (!(ELICITATION_ANSWERS as readonly (string | undefined)[]).includes(value)) {
            throw new Error(`--elicitation must be one of ${ELICITATION_ANSWERS.join(', ')}, got "${value}"`);
          }
          out.elicitation = value as ElicitationAnswer;
          break;
        case '--sampling':
          if (!(SAMPLING_ANSWERS as readonly (string | undefined)[]).includes(value)) {
            throw new Error(`--sampling must be one of ${SAMPLING_ANSWERS.join(', ')}, got "${value}"`);
          }
          out.sampling = value as SamplingAnswer;
          break;
        case '--root':
          if (!value) throw new Error('--root needs a folder');
          out.roots.push(value);
          break;
        case '--out':
          if (!value) throw new Error('--out needs a folder');
          out.out = value;
          break;
        case '--set':
          if (!value?.includes('=')) throw new Error('--set needs KEY=VALUE');
          out.sets.push(value);
          break;
        case '--from':
          out.from = value;
          break;
        case '--project':
          if (!value) throw new Error('--project needs a folder');
          out.project = value;
          break;
        case '--to':
          out.to = value;
          break;
        case '--server':
          if (!value) throw new Error('--server needs a server name');
          out.servers.push(value);
          break;
        case '--search':
          out.search = value;
          break;
        case '--limit':
          out.limit = toInt(name, value);
          if (out.limit < 1) throw new Error('--limit must be at least 1');
          break;
        case '--prompts':
          if (!value) throw new Error('--prompts needs a file');
          out.prompts = value;
          break;
        case '--list':
          out.list = true;
          break;
        case '--dry-run':
          out.dryRun = true;
          break;
        case '--yes':
          out.yes = true;
          break;
        case '--allow-flows':
          out.allowFlows = true;
          break;
        case '--json':
          out.json = true;
          break;
        case '--prometheus':
          out.prometheus = true;
          break;
        case '--reset':
          out.reset = true;
          break;
        case '--no-open':
          out.open = false;
          break;
        case '--help':
          out.help = true;
          break;
        case '--version':
          out.version = true;
          break;
        default:
          throw new Error(`unknown option ${name} (see --help)`);
      }
      continue;
    }
    if (raw === '-h') out.help = true;
    else if (out.command === undefined) out.command = raw;
    else out.positionals.push(raw);
  }
  return out;
}

function toInt(name: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

export const USAGE = `mcp-desk — the MCP Desk host on the command line

Usage: mcp-desk [--config FILE] [--json] COMMAND [ARGS]

Commands:
  servers                      each server's name and state
  tools                        every tool of every connected server (--json: tools with an
                               interactive view or a restricted visibility carry
                               ui: {resourceUri?, visibility})
  tools --search "QUERY" [--limit K]
                               tools ranked for QUERY as the chat's tool search ranks them,
                               with scores and the words each matched (default 20)
  offer ["PROMPT"…] [--prompts FILE]
                               for each prompt (or each line of FILE), the tools the first
                               model request would declare, why, and their tokens; servers
                               connect once, nothing is sent to any model (--json: one
                               line per prompt)
  resources                    every resource of every connected server
  prompts                      every prompt of every connected server
  audit-tools                  tools that changed since pinned, look poisoned (hidden characters,
                               orders to the model, secrets, sending data away) or shadow
                               another server's tool; exit 1 when any is found
  audit-flows                  every tool's flow labels (source of untrusted content, sensitive,
                               sink, or unknown: treated as a possible sink) and why
  call SERVER TOOL [JSON_ARGS] call a tool; exit 1 when it fails or returns isError
  read SERVER URI              read a resource
  app                          start the desktop app (needs an Electron binary; without one,
                               says how to get it; browser mode needs none)
  app SERVER TOOL [JSON_ARGS] --out DIR
                               call a tool that has an interactive view (MCP App) and write
                               DIR/view.html, DIR/csp.txt (the policy its sandbox would apply)
                               and DIR/result.json; nothing is rendered
  ask "PROMPT"                 run the chat agent headless (Gemini; key from GEMINI_API_KEY or the keychain)
  metrics                      what servers and models did (calls, errors, timeouts, latency,
                               connects, tokens), as counted by every run of the app and CLI
  install 'mcp-desk://install?…' [--set KEY=VALUE]… [--yes] [--dry-run]
                               preview an install link (a server entry, or registry=NAME from
                               the registry in MCP_DESK_REGISTRY_URL, default the official one)
                               and install it only with --yes or after y at the prompt
  install FILE.mcpb [--set KEY=VALUE]... [--dry-run]
                               install (or update) an MCP Bundle: prints what it is, asks
                               nothing; its user_config comes from --set (optional values left
                               unset take their defaults; a missing required one is an error)
  uninstall NAME               remove an installed bundle: its server, files and keychain secrets
  import --list                the other MCP apps found here (Claude Desktop, VS Code, Cursor…),
                               with their config files and server names
  import --from HOST [--dry-run] [--project DIR]
                               import that app's servers into the app's own list (never
                               overwriting one); literal secrets move to the keychain
  export --to FORMAT [--server NAME]...
                               servers (default: all) as a snippet for claude-desktop, vscode,
                               cursor, gemini-cli or claude-code; notes go to stderr
  client URL                   generic client for the MCP conformance runner
  browser                      serve the UI on 127.0.0.1 and print its URL

Options (before or after the command):
  --config FILE   server list in the mcpServers shape (default: the app's own)
  --json          machine-readable output
  --prometheus    metrics: the Prometheus text format (0.0.4)
  --reset         metrics: start counting from zero
  --timeout MS    how long to wait for servers and calls
  --port N        browser mode port (default: random)
  --no-open       browser mode: do not open a browser
  --model M       ask: the model (default: the app's setting)
  --base-url URL  ask: the Gemini API endpoint (tests, gateways)
  --root PATH     share a folder with servers (roots/list) for this run; repeatable
  --out DIR       app: where the view, its CSP and the result are written
  --set KEY=VALUE install: a bundle's user_config value (repeat a KEY for a list), or a value
                  an install link's entry needs (an env variable, header or argument by its name)
  --from HOST     import: claude-desktop, claude-code, vscode, cursor, windsurf, gemini-cli,
                  zed, goose, codex or lm-studio
  --dry-run       install, import: change nothing; start each new server once in the dry-run
                  sandbox (no network, secrets or roots) and print what it offers and tried
  --project DIR   import: also read this project folder's files (the working directory always is)
  --search QUERY  tools: rank tools for QUERY
  --limit K       tools --search: how many to print
  --prompts FILE  offer: one prompt per line
  --to FORMAT     export: the app to export for
  --server NAME   export: one server; repeatable (default: every server)
  --yes           ask: approve every tool call (otherwise calls needing approval are denied),
                  except a call the flow guard holds (a sink after untrusted content): that one
                  is denied and its chain printed to stderr; install: install without asking
  --allow-flows   ask: with --yes, allow held calls too (each is audited)
  --elicitation accept-defaults|decline|cancel
                  answer servers' questions without a person (default: cancel). accept-defaults
                  sends the form's defaults when they satisfy it and declines otherwise; links
                  (URL mode) are never opened headless, so they are declined
  --sampling approve|deny
                  answer servers' sampling requests without a person (default: deny). approve
                  runs them unchanged on the configured model (--model, --base-url apply)
`;
