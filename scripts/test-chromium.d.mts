/** Debian's Chromium, or CHROMIUM_PATH. */
export declare const CHROMIUM_PATH: string;
/** The flags every test Chromium runs with. */
export declare const CHROMIUM_ARGS: readonly string[];
/** The environment variable that carries the shared browser's address to the test files. */
export declare const SHARED_BROWSER_ENV: string;
/** Starts the shared Chromium of a test run, or resolves to null when there is nothing to share. */
export declare function startSharedChromium(
  files: readonly string[],
): Promise<{ wsEndpoint(): string; close(): Promise<void> } | null>;
