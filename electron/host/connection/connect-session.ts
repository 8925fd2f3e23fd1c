import type { ClientOptions } from '@modelcontextprotocol/client';
import { openClient, type OpenedClient } from './client-factory.js';
import { clientCapabilities, installHandlers, type ServerRequestHandlers } from './client-session.js';
import type { ConnectPlan } from './connect-plan.js';
import type { LateVerdict } from './probe-sibling.js';
import type { ServerOutput } from './server-output.js';
import { guardTransport } from './transport-guard.js';
import { newTreeMarker, rememberMarker, TREE_MARKER_ENV } from './tree-marker.js';

/** What running a session needs besides the plan: who answers the server, and where output goes. */
export interface SessionContext {
  id: string;
  handlers: ServerRequestHandlers;
  output: ServerOutput;
  /** The budget for the whole connect (probe, initialize, fallback, OAuth discovery). */
  timeout: number;
  /** Aborts the connect (the connection stopped meanwhile). */
  signal?: AbortSignal;
  listChanged: ClientOptions['listChanged'];
  /** A stdio probe that timed out was answered afterwards: the verdict for next time. */
  onLateVerdict?: (verdict: LateVerdict) => void;
  /** The stdio era probe's cap, over the default. */
  stdioProbeMs?: number;
}

/**
 * The session step of a connect: open the SDK client the plan describes, with the trace tap,
 * the stderr capture and our request handlers attached before any byte moves.
 */
export function openSession(plan: ConnectPlan, ctx: SessionContext): Promise<OpenedClient> {
  const { output } = ctx;
  // Every process the server starts inherits the marker, so none can slip away on stop.
  const marker = plan.launch.kind === 'stdio' ? newTreeMarker() : undefined;
  const launch =
    plan.launch.kind === 'stdio' && marker
      ? { ...plan.launch, env: { ...plan.launch.env, [TREE_MARKER_ENV]: marker } }
      : plan.launch;
  return openClient(launch, {
    ...(plan.authProvider ? { authProvider: plan.authProvider } : {}),
    clientOptions: {
      capabilities: clientCapabilities(ctx.handlers),
      listChanged: ctx.listChanged,
    },
    prior: plan.era.prior,
    timeout: ctx.timeout,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.onLateVerdict ? { onLateVerdict: ctx.onLateVerdict } : {}),
    ...(ctx.stdioProbeMs !== undefined ? { stdioProbeMs: ctx.stdioProbeMs } : {}),
    note: (text) => output.note(text),
    prepare: (transport, client) => {
      if (marker) rememberMarker(client, marker);
      guardTransport(transport, output);
      const stderr = (transport as { stderr?: NodeJS.ReadableStream | null }).stderr;
      stderr?.setEncoding?.('utf8');
      stderr?.on('data', (chunk: string | Buffer) => output.stderr(String(chunk)));
      installHandlers(ctx.id, ctx.handlers, output, client);
    },
  });
}
