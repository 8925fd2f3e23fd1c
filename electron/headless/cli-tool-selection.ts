import { readFile } from 'node:fs/promises';
import type { HostServices } from '../host/compose.js';
import { describeState } from './cli-output.js';
import { GEMINI_MAX_TOOLS } from '../host/chat/providers/gemini/gemini-provider.js';
import { OPENAI_MAX_TOOLS } from '../host/chat/providers/openai-provider.js';

/** Where a command writes. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Wait for every configured server, saying on stderr which did not come up. */
async function connectAll(services: HostServices, waitMs: number, io: CliIo): Promise<void> {
  await services.host.init();
  for (const s of await services.host.whenSettled(waitMs))
    if (s.state.kind !== 'connected') io.err(`${s.id}: ${describeState(s.state)}`);
}

/**
 * `mcp-desk tools --search "QUERY" [--limit K] [--json]`: tools ranked as the chat's tool
 * search ranks them (lexical; semantic too when the settings turn it on), with scores and the
 * words each matched. Every enabled tool is a candidate, not only the chat's offerable ones.
 */
export async function runToolSearch(
  services: HostServices,
  opts: { query: string; limit: number; json: boolean; waitMs: number },
  io: CliIo,
): Promise<number> {
  await connectAll(services, opts.waitMs, io);
  const hits = await services.selection.search(opts.query, { limit: opts.limit });
  if (opts.json) {
    io.out(JSON.stringify(hits));
    return 0;
  }
  for (const h of hits) {
    const flags = [
      h.awaitingReview ? ' [changed: awaits review]' : '',
      h.warnings?.length ? ' [warnings]' : '',
    ];
    io.out(
      `${h.score.toFixed(3)}\t${h.serverId}\t${h.tool}\t${h.reason}: ${h.terms.join(' ')}${flags.join('')}`,
    );
  }
  return 0;
}

/**
 * `mcp-desk offer ["PROMPT"…] [--prompts FILE] [--json]`: for each prompt, the tools the host
 * would declare on the first model request of a new conversation, with why and their tokens.
 * Servers connect once for all prompts; nothing is sent to any model.
 */
export async function runOffer(
  services: HostServices,
  opts: { prompts: string[]; file?: string; json: boolean; waitMs: number },
  io: CliIo,
): Promise<number> {
  const prompts = [...opts.prompts];
  if (opts.file) {
    const text = await readFile(opts.file, 'utf8');
    prompts.push(...text.split(/\r?\n/).filter((l) => l.trim()));
  }
  if (prompts.length === 0) throw new Error('offer needs a prompt, or --prompts FILE');
  await connectAll(services, opts.waitMs, io);
  const settings = services.settings.get();
  const cap = settings.provider === 'gemini' ? GEMINI_MAX_TOOLS : OPENAI_MAX_TOOLS;
  for (const prompt of prompts) {
    const started = performance.now();
    const plan = await services.selection.planRun({
      settings,
      cap,
      messages: [{ id: 'cli', role: 'user', parts: [{ type: 'text', text: prompt }], createdAt: Date.now() }],
    });
    const ms = performance.now() - started;
    const r = plan.report;
    if (opts.json) {
      io.out(
        JSON.stringify({
          prompt,
          mode: r.mode,
          declared: plan.tools.length,
          tools: r.tools.map((t) => ({
            server: t.serverId,
            tool: t.tool,
            name: t.name,
            reason: t.reason,
            tokens: t.tokens,
          })),
          ...(r.searchTool ? { searchTool: r.searchTool } : {}),
          tokens: r.tokens,
          enabled: r.enabledCount,
          maxTools: r.maxTools,
          maxTokens: r.maxTokens,
          cap: r.cap,
          ms: Number(ms.toFixed(2)),
        }),
      );
    } else {
      io.out(
        `${prompt}\n  ${plan.tools.length} declared of ${r.enabledCount} enabled, about ${r.tokens} tokens`,
      );
      for (const t of r.tools) io.out(`  ${t.serverId}/${t.tool}\t${t.reason}\t${t.tokens}`);
      if (r.searchTool) io.out(`  ${r.searchTool}\tsearch tool`);
    }
  }
  return 0;
}
