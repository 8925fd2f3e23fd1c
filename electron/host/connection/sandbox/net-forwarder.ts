/** The port the forwarder listens on inside the server's own network namespace (nothing else is there). */
export const FORWARDER_PORT = 3128;

/**
 * The forwarder, run by the host's own Node inside the sandbox: it listens on 127.0.0.1 in the
 * server's empty network namespace and relays each connection to the host's proxy socket, then
 * starts the server with stdio inherited (no copying) and ends with it. Started first so the
 * port is open before the server's first request. Kept inline (`node -e`) so it needs no file
 * of ours to be visible inside, in a packaged app or a dev tree alike.
 */
const FORWARDER_SOURCE = `
const net = require('node:net'), cp = require('node:child_process');
const [port, sock, keepRunAsNode, cmd, ...args] = process.argv.slice(1);
const env = { ...process.env };
if (keepRunAsNode !== '1') delete env.ELECTRON_RUN_AS_NODE;
const relay = net.createServer((c) => {
  const u = net.connect(sock);
  c.pipe(u); u.pipe(c);
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
  c.on('close', () => u.destroy()); u.on('close', () => c.destroy());
});
relay.listen(Number(port), '127.0.0.1', () => {
  const child = cp.spawn(cmd, args, { stdio: 'inherit', env });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => { process.stderr.write('cannot start ' + cmd + ': ' + e.message + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
});
relay.on('error', (e) => { process.stderr.write('network forwarder: ' + e.message + '\\n'); process.exit(1); });
`;

/** The proxy variables every common HTTP client reads, pointed at the forwarder. */
export function proxyEnv(): Record<string, string> {
  const url = `http://127.0.0.1:${FORWARDER_PORT}`;
  const env: Record<string, string> = { NO_PROXY: '', no_proxy: '' };
  for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) {
    env[k] = url;
    env[k.toLowerCase()] = url;
  }
  return env;
}

/**
 * The command line that runs `command args` behind the forwarder: `node` is the host's own
 * runtime (Electron's binary acting as Node needs ELECTRON_RUN_AS_NODE, which the server's own
 * environment keeps only when it had it).
 */
export function behindForwarder(
  node: string,
  socketPath: string,
  command: string,
  args: string[],
  serverRunsAsNode: boolean,
): { command: string; args: string[] } {
  return {
    command: node,
    args: [
      '-e',
      FORWARDER_SOURCE,
      '--',
      String(FORWARDER_PORT),
      socketPath,
      serverRunsAsNode ? '1' : '0',
      command,
      ...args,
    ],
  };
}
