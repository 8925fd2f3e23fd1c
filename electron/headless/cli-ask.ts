import type { ToolCallRecord } from '../../shared/domain/chat.js';
import type { HostServices } from '../host/compose.js';
import type { CliArgs } from './cli-args.js';
import { describeHeldCall } from './cli-held-flow.js';

/**
 * `mcp-desk ask "PROMPT"`: the same agent loop as the app, headless. Streamed text goes to
 * stdout, tool calls to stderr; calls that need approval are denied unless --yes. A call the
 * flow guard holds (a sink after untrusted content) is denied even with --yes, its chain on
 * stderr, unless --allow-flows is given too (audited). With --json the last stdout line is
 * {"text", "toolCalls": [{server, tool, args, isError}]}.
 */
export async function runAsk(
  args: CliArgs,
  services: HostServices,
  prompt: string,
  waitMs: number,
): Promise<number> {
  const { host, chat, broker, events, settings, audit } = services;
  await host.init();
  await host.whenSettled(waitMs);
  if (args.model)
    await settings.update(
      settings.get().provider === 'openai' ? { openaiModel: args.model } : { geminiModel: args.model },
    );

  // Headless approvals: the flag decides, and the person sees which calls were refused.
  events.on('pending.changed', (list) => {
    for (const r of list) {
      if (r.kind !== 'tool-approval') continue;
      if (r.flow) {
        const allow = args.yes && args.allowFlows;
        const outcome = allow
          ? 'allowed (--allow-flows)'
          : `denied (pass ${args.yes ? '' : '--yes '}--allow-flows to allow it)`;
        process.stderr.write(describeHeldCall({ ...r, flow: r.flow }, outcome));
        if (allow)
          audit.append({
            kind: 'approval',
            serverId: r.serverId,
            action: 'flow-allowed',
            details: { id: r.id, tool: r.tool, via: 'mcp-desk ask --allow-flows' },
          });
        broker.respond(r.id, { kind: 'tool-approval', choice: allow ? 'once' : 'deny' });
        continue;
      }
      const outside = r.outsideRoots?.length
        ? ` (it names paths outside the shared folders: ${r.outsideRoots.join(', ')})`
        : '';
      if (!args.yes)
        process.stderr.write(
          `approval needed for ${r.serverId}/${r.tool}${outside}: denied (pass --yes to allow)\n`,
        );
      broker.respond(r.id, { kind: 'tool-approval', choice: args.yes ? 'once' : 'deny' });
    }
  });

  const calls = new Map<string, ToolCallRecord>();
  let text = '';
  const conversation = await chat.create('CLI');
  chat.onEvent((_id, ev) => {
    if (ev.type === 'text-delta') {
      text += ev.text;
      process.stdout.write(ev.text);
    } else if (ev.type === 'tool-call') {
      const c = ev.call;
      const prev = calls.get(c.id);
      calls.set(c.id, c);
      if (prev?.status === c.status) return;
      const name = `${c.serverId || '?'}/${c.tool}`;
      if (c.status === 'running') process.stderr.write(`→ ${name} ${JSON.stringify(c.args)}\n`);
      else if (c.status === 'done') process.stderr.write(`✓ ${name}\n`);
      else if (c.status === 'error')
        process.stderr.write(`✗ ${name}: ${c.error?.message ?? 'the tool returned an error'}\n`);
      else if (c.status === 'denied' || c.status === 'cancelled')
        process.stderr.write(`✗ ${name}: ${c.status}\n`);
    } else if (ev.type === 'notice') {
      process.stderr.write(`note: ${ev.text}\n`);
    } else if (ev.type === 'message-start' && text && !text.endsWith('\n')) {
      text += '\n';
      process.stdout.write('\n');
    }
  });
  const { done } = await chat.send(conversation.id, prompt);
  const outcome = await done;
  if (text && !text.endsWith('\n')) process.stdout.write('\n');
  if (args.json) {
    const toolCalls = [...calls.values()].map((c) => ({
      server: c.serverId,
      tool: c.tool,
      args: c.args,
      isError: c.status !== 'done',
    }));
    process.stdout.write(`${JSON.stringify({ text, toolCalls })}\n`);
  }
  if (outcome.reason === 'error') {
    process.stderr.write(`mcp-desk: ${outcome.error?.message ?? 'the run failed'}\n`);
    return 1;
  }
  if (outcome.reason === 'max-turns') process.stderr.write('note: stopped at the tool-turn limit\n');
  return 0;
}
