/** The signals a terminal (Ctrl+C) or the OS (logout, shutdown, `kill`) sends to ask a process to quit. */
export type QuitSignal = 'SIGINT' | 'SIGTERM';

const SIGNALS: readonly QuitSignal[] = ['SIGINT', 'SIGTERM'];

/** Shell convention for "ended by signal N": 128 + N. */
export const INTERRUPTED_EXIT_CODE: Readonly<Record<QuitSignal, number>> = { SIGINT: 130, SIGTERM: 143 };

/** A quit request, watched from the moment the process starts until it ends. */
export interface QuitWatch {
  /** Resolves with the first SIGINT or SIGTERM. */
  readonly requested: Promise<QuitSignal>;
}

/**
 * Catch SIGINT and SIGTERM for the whole life of the process. Node's default for both is
 * to die on the spot, which would skip the host's dispose(): stdio servers' grandchildren
 * would be orphaned and queued writes (audit, roots, settings) lost. So the first signal
 * only asks for a clean quit, and a repeat during shutdown (an impatient second Ctrl+C, or
 * an OS that sends SIGTERM twice) is noted instead of killing the process mid-cleanup.
 * Only a third one forces the exit, for a person who really wants out of a stuck shutdown.
 */
export function watchQuitSignals(
  note: (text: string) => void,
  forceExit: (code: number) => void = (code) => process.exit(code),
): QuitWatch {
  let count = 0;
  let resolve: (signal: QuitSignal) => void = () => undefined;
  const requested = new Promise<QuitSignal>((r) => (resolve = r));
  const onSignal = (signal: QuitSignal) => {
    count++;
    if (count === 1) resolve(signal);
    else if (count === 2)
      note(`still shutting down (stopping servers, saving files); send ${signal} once more to force quit`);
    else forceExit(INTERRUPTED_EXIT_CODE[signal]);
  };
  // Never removed: a signal arriving after the clean shutdown started must not bypass it.
  // Signal listeners do not keep the event loop alive, so the process still exits on its own.
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return { requested };
}

/**
 * End the process with `code` as soon as stdout and stderr have flushed, rather than letting
 * the event loop drain: while Node tears itself down it closes its signal handles, and a
 * signal in that window (the second Ctrl+C of an impatient person) would kill the process
 * with SIGINT after a clean shutdown. An explicit exit keeps our listeners to the end, and
 * does not wait on a handle some library forgot to unref.
 */
export function exitWhenFlushed(code: number): void {
  let pending = 2;
  const flushed = () => {
    pending--;
    if (pending === 0) process.exit(code);
  };
  // The callback runs once the write is handed to the OS, or with an error (a closed pipe): either way it runs.
  process.stdout.write('', flushed);
  process.stderr.write('', flushed);
}
