/**
 * The reference server-everything over stdio, driven through the real host: catalog,
 * tools, resources, prompts, completions, progress, cancellation and timeouts.
 * One server process serves the whole file.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TraceEntry } from '../../shared/domain/server-state.js';
import {
  CleanupStack,
  connectedInfo,
  createTestHost,
  nodeServer,
  rejection,
  SERVERS,
  textOf,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const ID = 'every';

describe('server-everything over stdio', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;

  before(async () => {
    t = await createTestHost(stack, { servers: { [ID]: nodeServer(SERVERS.everything, ['stdio']) } });
    await waitForState(t.host, ID, 'connected');
  });
  after(() => stack.run());

  it('connects as a 2025 (legacy era) stdio server', () => {
    const s = t.host.list().find((x) => x.id === ID)!;
    const info = connectedInfo(s);
    assert.equal(info.protocolEra, 'legacy');
    assert.equal(s.transport, 'stdio');
    assert.match(info.name, /everything/);
    assert.ok(info.protocolVersion, 'a negotiated protocol version');
    assert.ok(s.counts.tools > 0 && s.counts.prompts > 0 && s.counts.resources > 0);
  });

  it('lists tools, resources, templates and prompts', () => {
    const cat = t.host.catalog();
    const tools = cat.tools.filter((x) => x.serverId === ID).map((x) => x.tool.name);
    for (const name of ['echo', 'get-sum', 'trigger-long-running-operation', 'get-env'])
      assert.ok(tools.includes(name), `tool ${name} in ${tools.join(',')}`);
    assert.ok(
      cat.resources.some((r) => r.serverId === ID),
      'resources',
    );
    assert.ok(
      cat.templates.some((r) => r.serverId === ID),
      'resource templates',
    );
    assert.ok(
      cat.prompts.some((p) => p.serverId === ID),
      'prompts',
    );
  });

  it('calls echo and get-sum', async () => {
    const echo = await t.host.callTool(ID, 'echo', { message: 'hello there' });
    assert.equal(textOf(echo), 'Echo: hello there');
    assert.notEqual(echo.isError, true);
    const sum = await t.host.callTool(ID, 'get-sum', { a: 2, b: 40 });
    assert.match(textOf(sum), /\b42\b/);
  });

  it('refuses a tool the server does not list, without a round trip', async () => {
    const err = await rejection(t.host.callTool(ID, 'no-such-tool', {}));
    assert.equal(err.code, 'unknown_tool');
  });

  it('reads the first listed resource', async () => {
    const first = t.host.catalog().resources.find((r) => r.serverId === ID)!.resource;
    const res = await t.host.readResource(ID, first.uri);
    assert.ok(res.contents.length > 0);
    assert.equal(res.contents[0].uri, first.uri);
    assert.ok(res.contents[0].text !== undefined || res.contents[0].blob !== undefined);
  });

  it('reads a resource from a template', async () => {
    const tpl = t.host
      .catalog()
      .templates.find((x) => x.serverId === ID && x.template.uriTemplate.includes('/text/'))!.template;
    const uri = tpl.uriTemplate.replace('{resourceId}', '7');
    const res = await t.host.readResource(ID, uri);
    assert.match(res.contents[0].text ?? '', /Resource 7/);
  });

  it('gets prompts with and without arguments', async () => {
    const prompts = t.host
      .catalog()
      .prompts.filter((p) => p.serverId === ID)
      .map((p) => p.prompt);
    const args = prompts.find((p) => p.name === 'args-prompt');
    assert.ok(args, `args-prompt in ${prompts.map((p) => p.name).join(',')}`);
    assert.ok(args.arguments?.some((a) => a.name === 'city' && a.required));
    const got = await t.host.getPrompt(ID, 'args-prompt', { city: 'Lisbon' });
    const first = got.messages[0].content;
    assert.equal(first.type, 'text');
    assert.match(first.type === 'text' ? first.text : '', /Lisbon/);
    const simple = await t.host.getPrompt(ID, 'simple-prompt', {});
    assert.ok(simple.messages.length > 0);
  });

  it('completes prompt and resource-template arguments', async () => {
    const info = connectedInfo(t.host.list().find((x) => x.id === ID)!);
    assert.ok(info.capabilities.completions, 'server-everything advertises completions');
    const dept = await t.host.complete(
      ID,
      { type: 'ref/prompt', name: 'completable-prompt' },
      { name: 'department', value: 'E' },
    );
    assert.deepEqual(dept.values, ['Engineering']);
    // The second argument depends on the first, passed as context.
    const name = await t.host.complete(
      ID,
      { type: 'ref/prompt', name: 'completable-prompt' },
      { name: 'name', value: 'A' },
      { arguments: { department: 'Engineering' } },
    );
    assert.deepEqual(name.values, ['Alice']);
    const tpl = t.host
      .catalog()
      .templates.find((x) => x.serverId === ID && x.template.uriTemplate.includes('{resourceId}'))!.template;
    const id = await t.host.complete(
      ID,
      { type: 'ref/resource', uri: tpl.uriTemplate },
      { name: 'resourceId', value: '3' },
    );
    assert.deepEqual(id.values, ['3']);
  });

  it('reports progress of a long-running operation', async () => {
    const updates: { progress: number; total?: number }[] = [];
    const result = await t.host.callTool(
      ID,
      'trigger-long-running-operation',
      { duration: 0.6, steps: 3 },
      { onProgress: (p) => updates.push(p) },
    );
    assert.match(textOf(result), /completed/i);
    assert.ok(updates.length >= 2, `progress updates: ${JSON.stringify(updates)}`);
    assert.deepEqual(
      updates.map((u) => u.progress),
      [...updates.map((u) => u.progress)].sort((a, b) => a - b),
      'progress only grows',
    );
    assert.equal(updates[updates.length - 1].total, 3);
  });

  it('cancels an in-flight call and tells the server (notifications/cancelled)', async () => {
    let sawProgress!: () => void;
    const progressed = new Promise<void>((r) => (sawProgress = r));
    const call = t.host.callTool(
      ID,
      'trigger-long-running-operation',
      { duration: 20, steps: 40 },
      { callId: 'cancel-me', onProgress: () => sawProgress() },
    );
    const outcome = rejection(call);
    await progressed;
    assert.equal(t.host.cancel('cancel-me'), true);
    const err = await outcome;
    assert.equal(err.code, 'cancelled', `rejected with ${JSON.stringify(err)}`);
    assert.equal(t.host.cancel('cancel-me'), false, 'a settled call is forgotten');

    const trace = t.host.trace(ID);
    const request = lastCall(trace, 'trigger-long-running-operation');
    assert.ok(request?.id !== undefined, 'the tools/call request is in the trace');
    const cancelled = await waitFor('notifications/cancelled in the trace', () =>
      t.host
        .trace(ID)
        .find(
          (e) =>
            e.direction === 'out' && e.method === 'notifications/cancelled' && requestIdOf(e) === request.id,
        ),
    );
    assert.ok(cancelled.seq > request.seq);
    // The reason the server reads is the words, not the host's error class (issue 24).
    assert.equal(reasonOf(cancelled), 'cancelled by the user');
    // server-everything keeps sending progress for the call it was told to cancel: the log says
    // so in plain words, and never calls it a transport error (issue 24).
    await waitFor('late progress in the trace', () =>
      t.host
        .trace(ID)
        .find((e) => e.direction === 'in' && e.method === 'notifications/progress' && e.seq > cancelled.seq),
    );
    const notes = () =>
      t.host
        .log(ID)
        .filter((l) => l.stream === 'host')
        .map((l) => l.text);
    await waitFor('the late progress noted', () => notes().find((n) => /already ended/.test(n)));
    assert.deepEqual(
      notes().filter((n) => /transport error|unknown token/i.test(n)),
      [],
      'late progress is not a transport error',
    );
    // Still usable afterwards.
    assert.equal(
      textOf(await t.host.callTool(ID, 'echo', { message: 'after cancel' })),
      'Echo: after cancel',
    );
  });

  it('times out a slow call with code "timeout" and stays usable', async () => {
    // One step of 5 s: no progress arrives to reset the 400 ms timeout.
    const err = await rejection(
      t.host.callTool(ID, 'trigger-long-running-operation', { duration: 5, steps: 1 }, { timeoutMs: 400 }),
    );
    assert.equal(err.code, 'timeout', `rejected with ${JSON.stringify(err)}`);
    assert.equal(t.host.list().find((x) => x.id === ID)!.state.kind, 'connected');
    assert.equal(textOf(await t.host.callTool(ID, 'echo', { message: 'still here' })), 'Echo: still here');
  });

  it('refuses a duplicate call id while the first is in flight', async () => {
    const first = t.host.callTool(
      ID,
      'trigger-long-running-operation',
      { duration: 0.5, steps: 1 },
      { callId: 'dup' },
    );
    const err = await rejection(t.host.callTool(ID, 'echo', { message: 'x' }, { callId: 'dup' }));
    assert.equal(err.code, 'duplicate_call');
    await first;
  });
});

/** The newest outgoing tools/call for `tool`. */
function lastCall(trace: TraceEntry[], tool: string): TraceEntry | undefined {
  return trace
    .filter((e) => e.direction === 'out' && e.method === 'tools/call' && e.json.includes(`"name":"${tool}"`))
    .pop();
}

function reasonOf(entry: TraceEntry): unknown {
  return (JSON.parse(entry.json) as { params?: { reason?: unknown } }).params?.reason;
}

function requestIdOf(entry: TraceEntry): unknown {
  const msg = JSON.parse(entry.json) as { params?: { requestId?: unknown } };
  return msg.params?.requestId;
}
