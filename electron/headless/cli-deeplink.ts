import { createInterface } from 'node:readline/promises';
import type { InstallOption, InstallPreview, ResolvedInstall } from '../../shared/domain/registry.js';
import type { HostServices } from '../host/compose.js';
import { HostFailure } from '../host/util/errors.js';
import type { CliArgs } from './cli-args.js';
import { describeDryRun } from './cli-dry-run.js';
import { describeNotStored, describeState } from './cli-output.js';

/** Where the command writes, and whether a person can answer a y/N question. */
export interface DeepLinkIo {
  out(text: string): void;
  /** Asks on the terminal; absent when stdin or stdout is not a TTY. */
  confirm?: (question: string) => Promise<boolean>;
}

/** A y/N question on the terminal, or none when nobody is there to answer. */
export function terminalConfirm(): DeepLinkIo['confirm'] {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return undefined;
  return async (question) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return /^y(?:es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
    } finally {
      rl.close();
    }
  };
}

/**
 * `mcp-desk install 'mcp-desk://install?…' [--set KEY=VALUE]… [--yes] [--json]`: the same
 * preview the app shows, printed; installed only with --yes or a "y" at the prompt (a link
 * never installs by itself). Values are matched to the preview's inputs by id or by name.
 * Returns the exit code: 0 installed or only previewed, 1 a value is missing or the install failed.
 */
export async function runDeepLinkInstall(
  args: CliArgs,
  services: HostServices,
  url: string,
  waitMs: number,
  io: DeepLinkIo,
): Promise<number> {
  const preview = await services.registry.previewLink(url);
  const option = preview.options.find((o) => o.available && !o.bundle);
  if (!option) {
    const why = preview.validation.ok
      ? preview.options.map((o) => `${o.label}: ${o.reason ?? 'a bundle'}`).join('; ') || 'nothing to install'
      : preview.validation.problems.join('; ');
    throw new HostFailure(
      'server_json_invalid',
      `This link offers nothing MCP Desk can install here: ${why}`,
    );
  }
  const values = valuesFor(option, args.sets);
  const name = preview.suggestedName;
  const resolved = services.registry.resolve({
    previewId: preview.previewId,
    option: option.id,
    values,
    name,
  });
  const report = { preview: publicPreview(preview), option: option.id, name, resolved };
  if (!args.json) io.out(describePreview(preview, option, name, resolved));
  if (resolved.missing.length || resolved.problems.length) {
    if (args.json) io.out(JSON.stringify({ ...report, installed: false }));
    throw new HostFailure(
      'input_missing',
      [
        resolved.missing.length
          ? `missing ${resolved.missing.join(', ')} (give each with --set NAME=VALUE)`
          : '',
        ...resolved.problems,
      ]
        .filter(Boolean)
        .join('; '),
    );
  }
  if (args.dryRun) {
    const dryRun = await services.dryRuns.run({
      source: 'registry',
      previewId: preview.previewId,
      option: option.id,
      values,
      name,
    });
    if (args.json) io.out(JSON.stringify({ ...report, dryRun, installed: false }));
    else io.out([...describeDryRun(dryRun), 'Not installed (--dry-run).'].join('\n'));
    return 0;
  }
  const yes = args.yes || (io.confirm ? await io.confirm(`Install "${name}"?`) : false);
  if (!yes) {
    if (args.json) io.out(JSON.stringify({ ...report, installed: false }));
    else io.out('Not installed. Run again with --yes to install it.');
    return 0;
  }
  const outcome = await services.registry.install({
    previewId: preview.previewId,
    option: option.id,
    values,
    name,
  });
  if (outcome.kind !== 'server') throw new HostFailure('unavailable', 'bundle install not available here');
  const settled = (await services.host.whenSettled(waitMs)).find((s) => s.id === name) ?? outcome.server;
  if (args.json)
    io.out(
      JSON.stringify({
        ...report,
        installed: true,
        server: { id: name, state: settled.state.kind },
        ...(outcome.notStored ? { notStored: outcome.notStored } : {}),
      }),
    );
  else {
    io.out(`Installed "${name}" into ${services.host.configPath}: ${describeState(settled.state)}`);
    if (outcome.notStored) io.out(describeNotStored(outcome.notStored));
  }
  return 0;
}

/** `--set KEY=VALUE` by input id (`env.API_KEY`) or by its name (`API_KEY`); an unknown key is an error. */
function valuesFor(option: InstallOption, sets: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const set of sets) {
    const at = set.indexOf('=');
    const key = set.slice(0, at);
    const input = option.inputs.find((i) => i.id === key) ?? option.inputs.find((i) => i.label === key);
    if (!input)
      throw new HostFailure(
        'invalid_request',
        `--set ${key}: the entry has no such value (it takes ${option.inputs.map((i) => i.label).join(', ') || 'none'})`,
      );
    values[input.id] = set.slice(at + 1);
  }
  return values;
}

function publicPreview(p: InstallPreview): Omit<InstallPreview, 'previewId'> {
  const { previewId: _id, ...rest } = p;
  return rest;
}

function describePreview(
  preview: InstallPreview,
  option: InstallOption,
  name: string,
  resolved: ResolvedInstall,
): string {
  const s = preview.server;
  const lines = [
    `${s.title ?? s.name}${s.version ? ` ${s.version}` : ''}${s.title ? ` (${s.name})` : ''}`,
    ...(s.description ? [s.description] : []),
    `Will be saved as "${name}" (${option.label}):`,
    JSON.stringify(resolved.entry ?? {}, null, 2),
    ...preview.warnings.map((w) => `Note: ${w}`),
    ...resolved.secrets.map((n) => `Secret ${n} goes to the keychain.`),
    ...option.inputs
      .filter((i) => !i.required)
      .map((i) => `Optional: ${i.label}${i.description ? ` — ${i.description}` : ''} (--set ${i.label}=…)`),
  ];
  return lines.join('\n');
}
