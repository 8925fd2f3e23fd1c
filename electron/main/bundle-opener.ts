/**
 * .mcpb files the operating system hands the app: `open-file` on macOS (which may fire before
 * the app is ready), and the command line of the first launch or of a second instance
 * (Windows and Linux file associations). Paths wait here until the main window can show a
 * preview, then each goes to the host, which stages it and offers it to the window.
 */
export class BundleOpener {
  private readonly pending: string[] = [];
  private target?: (path: string) => void;

  /** A .mcpb to preview: now if the window is ready, else once it is. */
  open(path: string): void {
    if (this.target) this.target(path);
    else this.pending.push(path);
  }

  /** The window can show previews: deliver what waited, and everything from now on. */
  attach(target: (path: string) => void): void {
    this.target = target;
    for (const path of this.pending.splice(0)) target(path);
  }
}

/** The .mcpb paths on a command line (argv[0], the executable, and options are skipped). */
export function bundlePathsIn(argv: readonly string[]): string[] {
  return argv.slice(1).filter((a) => !a.startsWith('-') && /\.mcpb$/i.test(a));
}
