import type { DryRunReport } from '../../shared/domain/dry-run.js';

/** A dry run's report as lines a person reads: the same facts the app's preview shows. */
export function describeDryRun(r: DryRunReport): string[] {
  const lines = [`dry run of "${r.serverName}":`];
  const s = r.sandbox;
  if (s.kind === 'ran') lines.push(`  ran in the ${s.tool} sandbox (no network, no secrets, no roots)`);
  else if (s.kind === 'unavailable')
    lines.push(`  NOT STARTED: no sandbox here (${s.reason}); static checks only`);
  else lines.push(`  not started: ${s.reason}`);
  lines.push(`  command: ${r.command}`);
  r.args.forEach((a, i) => lines.push(`  arg ${i + 1}: ${a}`));
  if (r.envNames.length) lines.push(`  environment (values not shown): ${r.envNames.join(', ')}`);
  for (const n of r.notes) lines.push(`  note: ${n}`);
  if (r.outcome.kind === 'failed') lines.push(`  did not start and list: ${r.outcome.message}`);
  if (r.outcome.kind === 'listed') {
    for (const t of r.tools) {
      const warned = t.warnings.length ? `  [${t.warnings.map((w) => w.kind).join(', ')}]` : '';
      lines.push(`  tool ${t.name}${warned}`);
    }
    if (r.resources.length) lines.push(`  resources: ${r.resources.map((x) => x.name).join(', ')}`);
    if (r.prompts.length) lines.push(`  prompts: ${r.prompts.map((x) => x.name).join(', ')}`);
  }
  const a = r.attempts;
  if (!a.recorded) lines.push(`  what it tried was not recorded: ${a.reason}`);
  else {
    if (!a.paths.length && !a.connections.length) lines.push('  tried nothing the sandbox refused');
    for (const p of a.paths) lines.push(`  refused ${p.op} ${p.path} (${p.denied})`);
    for (const c of a.connections) lines.push(`  refused connect ${c.address} (no network)`);
    if (a.truncated) lines.push('  (it tried more than is listed)');
  }
  return lines;
}
