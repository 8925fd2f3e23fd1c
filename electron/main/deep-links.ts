import { resolve } from 'node:path';
import { DEEP_LINK_SCHEME } from '../../shared/domain/registry.js';

/** The slice of Electron's `app` the protocol hook uses (a fake in tests). */
export interface ProtocolApp {
  setAsDefaultProtocolClient(protocol: string, path?: string, args?: string[]): boolean;
  on(event: 'open-url', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
}

/** Links that arrive before the host is up, at most. */
const MAX_QUEUED = 5;

/** The install link in a command line: Windows and Linux hand it to the app as an argument. */
export function linkInArgv(argv: readonly string[]): string | undefined {
  return argv.find((a) => a.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`));
}

/**
 * `mcp-desk://` links from the OS: registered as the scheme's handler, received by `open-url`
 * (macOS), from argv on a first launch and from a second instance's argv (Windows, Linux), and
 * queued until the host can take them. A link only ever opens the install preview.
 */
export class DeepLinkHook {
  private queue: string[] = [];
  private sink: ((url: string) => void) | undefined;

  /** Register the scheme and listen; call before `ready` (macOS sends open-url that early). */
  register(app: ProtocolApp, argv: readonly string[], defaultApp: boolean): void {
    // Run from source (`electron .`), the OS must start Electron with our entry script.
    const script = argv[1];
    if (defaultApp && script)
      app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [resolve(script)]);
    else app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
    app.on('open-url', (event, url) => {
      event.preventDefault();
      this.receive(url);
    });
    const first = linkInArgv(argv);
    if (first) this.receive(first);
  }

  /** A link from anywhere (open-url, argv, a second instance). */
  receive(url: string): void {
    if (this.sink) this.sink(url);
    else this.queue = [...this.queue, url].slice(-MAX_QUEUED);
  }

  /** From now on links go to `sink`; the queued ones first. */
  attach(sink: (url: string) => void): void {
    this.sink = sink;
    const queued = this.queue;
    this.queue = [];
    for (const url of queued) sink(url);
  }
}
