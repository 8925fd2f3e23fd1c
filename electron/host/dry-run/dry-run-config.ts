import {
  isStdioConfig,
  type ServerConfig,
  type StdioServerConfig,
} from '../../../shared/domain/server-config.js';

const SECRET_REF = /\$\{secret:[A-Za-z_][A-Za-z0-9_.-]*\}/g;
const ANY_REF = /\$\{(env|secret):[A-Za-z_][A-Za-z0-9_.-]*\}/g;

/**
 * The entry as the dry run starts it: no secrets. Every `${secret:…}` becomes empty, and so
 * does every reference in its environment (`${env:GITHUB_TOKEN}` is a secret by another
 * name); arguments keep their `${env:…}` (paths, mostly), literal values stay as they are.
 * The sandbox and network fields are the dry run's own, so they go too.
 */
export function dryRunConfig(config: StdioServerConfig): StdioServerConfig {
  const { sandbox: _sandbox, network: _network, ...rest } = config;
  const blank = (text: string) => text.replace(SECRET_REF, '');
  const env = config.env
    ? Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, v.replace(ANY_REF, '')]))
    : undefined;
  return {
    ...rest,
    command: blank(config.command),
    ...(config.args ? { args: config.args.map(blank) } : {}),
    ...(env ? { env } : {}),
    ...(config.cwd ? { cwd: blank(config.cwd) } : {}),
  };
}

/** What can be said of an entry without running it (shown with or without a sandbox). */
export function staticNotes(config: ServerConfig): string[] {
  if (!isStdioConfig(config))
    return [`connects to ${config.url}: a remote server runs elsewhere, nothing runs here`];
  const notes: string[] = [];
  const line = [config.command, ...(config.args ?? [])].join(' ');
  if (
    /(^|[\s/])(sh|bash|zsh|dash|cmd(\.exe)?|powershell(\.exe)?|pwsh)$/.test(config.command) ||
    /\s-c\s/.test(` ${line} `)
  )
    notes.push('runs a shell: what it does depends on the command text it is given');
  if (/\b(curl|wget)\b[^|]*\|\s*(sh|bash)\b/.test(line))
    notes.push('downloads a script and pipes it into a shell');
  if (/^(npx|pnpx|bunx|uvx|pipx)$/.test(config.command.replace(/\.(cmd|exe)$/i, '')))
    notes.push(
      `${config.command} fetches the package when it starts: the code that runs is what the registry serves then`,
    );
  if (config.env && Object.keys(config.env).length)
    notes.push(`sets ${Object.keys(config.env).length} environment variable(s); their values are not shown`);
  return notes;
}
