// Replaces the `when-exit` package inside the Node bundles (see `alias` in scripts/build.mjs).
// conf writes through `atomically`, which imports when-exit only to delete leftover temp files
// at exit. when-exit does that by hooking SIGINT, SIGTERM, SIGHUP and a dozen more signals at
// import time and re-sending each one to the process, so our own clean-quit handler would see
// every Ctrl+C twice. This keeps the part that matters (run callbacks on 'exit') and leaves
// signals to the app. A default export, unlike the rest of the code base, because that is the
// interface of the module it stands in for.
import process from 'node:process';

const callbacks = new Set();
let hooked = false;

/** Runs `callback` when the process exits; returns a function that unregisters it. */
export default function whenExit(callback) {
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const run of callbacks) run();
    });
  }
  callbacks.add(callback);
  return () => {
    callbacks.delete(callback);
  };
}
