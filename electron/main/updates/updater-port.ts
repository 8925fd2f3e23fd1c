/** A version the feed offers, with its release notes as plain text. */
export interface FoundUpdate {
  version: string;
  releaseNotes: string;
}

/** What an update source reports, by event. */
export interface UpdateSourceEvents {
  available: (update: FoundUpdate) => void;
  /** The feed answered: nothing newer than the running version. */
  'not-available': () => void;
  /** Download progress in percent (0–100). */
  progress: (percent: number) => void;
  /** Downloaded and its sha512 verified: ready to install. */
  downloaded: (update: FoundUpdate) => void;
  /** A check or download failed; the message is one short line for the person. */
  error: (message: string) => void;
}

/**
 * Where updates come from, as the UpdateController sees it. electron/main/updates adapts
 * electron-updater to it; the controller and its tests never import electron-updater (nor does
 * the plain-Node host, which only knows UpdateChecksPort).
 */
export interface UpdateSource {
  /** Ask the feed; the answer arrives as `available` / `not-available` / `error`. */
  checkForUpdates(): Promise<void>;
  /** Download the version found; the answer arrives as `downloaded` / `error`. */
  downloadUpdate(): Promise<void>;
  /** Quit the app and install the downloaded version. */
  quitAndInstall(): void;
  /** Listen to one event; the returned function stops listening. */
  on<E extends keyof UpdateSourceEvents>(event: E, listener: UpdateSourceEvents[E]): () => void;
}
