/** What a test run does about the keychain (see keyring-session.mjs). */
export type KeyringPlan =
  { kind: 'go on' } | { kind: 'start'; why: string } | { kind: 'without'; why: string; missing: string[] };
/** The Debian/Ubuntu packages that give a private Secret Service. */
export declare const KEYRING_PACKAGES: string[];
/** Whether this run goes on as it is, starts the private session, or goes on without one. */
export declare function keyringPlan(options?: {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}): Promise<KeyringPlan>;
/** The environment of the run inside the session (npm config and cache kept). */
export declare function sessionEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
/** Runs the script again inside .ci/keyring-session when needed (and exits); returns otherwise. */
export declare function rerunInKeyringSession(root: string, script: string, args: string[]): Promise<void>;
