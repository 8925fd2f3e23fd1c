import type { UpdateCheckStatus } from '../../../shared/domain/app-settings.js';
import type { UpdateChecksPort } from '../../host/shell/update-checks-port.js';
import type { FoundUpdate, UpdateSource } from './updater-port.js';

/** Where the updater is now (what the tray and Settings could show). */
export type UpdateState =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'available'; version: string }
  | { kind: 'downloading'; version: string; percent: number }
  | { kind: 'ready'; version: string; releaseNotes: string }
  | { kind: 'error'; message: string };

/** "Restart to update", as the tray and the app menu offer it. */
export interface RestartOffer {
  label: string;
  version: string;
  releaseNotes: string;
}

/** What a restart request did: nothing is installed while a request waits for the person. */
export type RestartResult = { kind: 'restarting'; version: string } | { kind: 'refused'; reason: string };

/** setTimeout/clearTimeout, injectable so tests step through days without waiting. */
export interface UpdateTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What UpdateController needs. */
export interface UpdateControllerDeps {
  source: UpdateSource;
  /** How many requests wait for the person now (the pending broker's queue). */
  waitingRequests: () => number;
  timers?: UpdateTimers;
  env?: NodeJS.ProcessEnv;
  /** After start: late enough not to compete with the app's own start-up. */
  firstCheckDelayMs?: number;
  intervalMs?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const realTimers: UpdateTimers = {
  setTimeout: (callback, ms) => {
    // Unref'd: a pending check never keeps the process alive on its own.
    const handle = setTimeout(callback, ms);
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Auto-update policy, free of Electron: check on start and then daily while the setting (and
 * MCP_DESK_UPDATES) allow, download what is found in the background, and offer "Restart to
 * update" only while no request waits for the person; a restart asked for while one waits is
 * refused, so an install never cancels an approval, a review or a form.
 */
export class UpdateController implements UpdateChecksPort {
  private current: UpdateState = { kind: 'idle' };
  private ready: FoundUpdate | undefined;
  private status: UpdateCheckStatus = { kind: 'off', source: 'setting' };
  private timer: unknown;
  private readonly timers: UpdateTimers;
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribe: (() => void)[];

  constructor(private readonly deps: UpdateControllerDeps) {
    this.timers = deps.timers ?? realTimers;
    const { source } = deps;
    this.unsubscribe = [
      source.on('available', (u) => this.found(u)),
      source.on('not-available', () => this.set(this.idleState())),
      source.on('progress', (percent) => {
        if (this.current.kind === 'available' || this.current.kind === 'downloading')
          this.set({ kind: 'downloading', version: this.current.version, percent });
      }),
      source.on('downloaded', (u) => {
        this.ready = u;
        this.set({ kind: 'ready', version: u.version, releaseNotes: u.releaseNotes });
      }),
      source.on('error', (message) => this.set({ kind: 'error', message })),
    ];
  }

  /** The setting changed (or the app started): start or stop the checks. */
  apply(enabled: boolean): UpdateCheckStatus {
    const env = this.deps.env ?? process.env;
    const envOff = env.MCP_DESK_UPDATES?.trim().toLowerCase() === 'off';
    this.status = envOff
      ? { kind: 'off', source: 'env' }
      : enabled
        ? { kind: 'on' }
        : { kind: 'off', source: 'setting' };
    if (this.status.kind === 'on') {
      if (this.timer === undefined) this.schedule(this.deps.firstCheckDelayMs ?? 10_000);
    } else this.stopTimer();
    return this.status;
  }

  state(): UpdateState {
    return this.current;
  }

  /** "Restart to update (vX)" when an update is downloaded and nobody waits; otherwise none. */
  restartOffer(): RestartOffer | undefined {
    if (!this.ready || this.deps.waitingRequests() > 0) return undefined;
    const { version, releaseNotes } = this.ready;
    return { label: `Restart to update (v${version})`, version, releaseNotes };
  }

  /** Quit and install the downloaded update, unless a request waits for the person. */
  restart(): RestartResult {
    if (!this.ready) return { kind: 'refused', reason: 'no update has been downloaded' };
    const waiting = this.deps.waitingRequests();
    if (waiting > 0)
      return {
        kind: 'refused',
        reason: `${waiting} request${waiting === 1 ? ' waits' : 's wait'} for you; answer ${waiting === 1 ? 'it' : 'them'} first`,
      };
    this.deps.source.quitAndInstall();
    return { kind: 'restarting', version: this.ready.version };
  }

  /** Be told when the state or the downloaded update changes (the menus rebuild). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.stopTimer();
    for (const off of this.unsubscribe) off();
    this.listeners.clear();
  }

  private schedule(ms: number): void {
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      void this.check().finally(() => {
        if (this.status.kind === 'on' && this.timer === undefined)
          this.schedule(this.deps.intervalMs ?? DAY_MS);
      });
    }, ms);
  }

  private stopTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async check(): Promise<void> {
    // A download still running is not interrupted by the next day's check.
    if (this.current.kind === 'checking' || this.current.kind === 'downloading') return;
    this.set({ kind: 'checking' });
    try {
      await this.deps.source.checkForUpdates();
      // A source that answers nothing (e.g. an updater that is inactive) leaves no check running.
      if (this.state().kind === 'checking') this.set(this.idleState());
    } catch (error) {
      this.set({ kind: 'error', message: (error as Error).message });
    }
  }

  private found(update: FoundUpdate): void {
    if (this.ready?.version === update.version) {
      this.set(this.idleState());
      return;
    }
    this.set({ kind: 'available', version: update.version });
    // Checks turned off meanwhile: nothing more is fetched.
    if (this.status.kind !== 'on') return;
    this.set({ kind: 'downloading', version: update.version, percent: 0 });
    this.deps.source.downloadUpdate().catch((error: unknown) => {
      this.set({ kind: 'error', message: (error as Error).message });
    });
  }

  private idleState(): UpdateState {
    return this.ready
      ? { kind: 'ready', version: this.ready.version, releaseNotes: this.ready.releaseNotes }
      : { kind: 'idle' };
  }

  private set(next: UpdateState): void {
    this.current = next;
    for (const l of [...this.listeners]) l();
  }
}
