/**
 * Keeping the keyboard with the person while MCP App views run beside the app.
 *
 * Every view frame is denied `focus-without-user-activation`, so where the browser enforces that
 * policy (Chromium with the feature on: the desktop app, Chrome 149+) a view cannot take the
 * focus before the person interacts with it. Two holes remain, and this guard covers what it can
 * of them: a browser that does not enforce the policy, and the seconds after the person used a
 * view (its activation lasts), when it can take the focus back as soon as they return to the app.
 * A cross-origin frame tells the app nothing when it is clicked, only that the app lost the focus;
 * so a focus move into a view right after the person pressed a key or a pointer in the app (and
 * not Tab) is taken as theft: the focus goes back where it was, and a view that does it again
 * and again is stopped.
 */

/** A focus move into a view this soon after the person used the app was not theirs. */
export const RECENT_INPUT_MS = 750;
/** This many takes within TAKE_WINDOW_MS stop the view. */
export const TAKES_TO_STOP = 3;
const TAKE_WINDOW_MS = 10_000;

/** Whether this browser enforces the `focus-without-user-activation` permissions policy. */
export function focusPolicyEnforced(doc: Document = document): boolean {
  const policy = (doc as Document & { featurePolicy?: { features(): string[] } }).featurePolicy;
  try {
    return policy?.features().includes('focus-without-user-activation') ?? false;
  } catch {
    return false;
  }
}

/** Watches one view's frame; `dispose()` stops watching. */
export class FocusGuard {
  private lastInputAt = Number.NEGATIVE_INFINITY;
  private lastKey = '';
  private returnTo: HTMLElement | null = null;
  private takes: number[] = [];
  private readonly stop: () => void;

  constructor(
    private readonly frame: HTMLIFrameElement,
    onStop: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    let stopped = false;
    this.stop = () => {
      if (stopped) return;
      stopped = true;
      onStop();
    };
    const doc = frame.ownerDocument;
    doc.addEventListener('keydown', this.onKey, true);
    doc.addEventListener('pointerdown', this.onPointer, true);
    doc.addEventListener('focusin', this.onFocusIn, true);
    doc.defaultView?.addEventListener('blur', this.onBlur);
  }

  dispose(): void {
    const doc = this.frame.ownerDocument;
    doc.removeEventListener('keydown', this.onKey, true);
    doc.removeEventListener('pointerdown', this.onPointer, true);
    doc.removeEventListener('focusin', this.onFocusIn, true);
    doc.defaultView?.removeEventListener('blur', this.onBlur);
  }

  private readonly onKey = (e: KeyboardEvent) => {
    this.lastInputAt = this.now();
    this.lastKey = e.key;
  };

  private readonly onPointer = () => {
    this.lastInputAt = this.now();
    this.lastKey = '';
  };

  private readonly onFocusIn = (e: FocusEvent) => {
    if (e.target instanceof HTMLElement && e.target !== this.frame) this.returnTo = e.target;
  };

  /** The app lost the focus; if this view has it and the person did not send it there, take it back. */
  private readonly onBlur = () => {
    const doc = this.frame.ownerDocument;
    if (doc.activeElement !== this.frame) return;
    const at = this.now();
    if (at - this.lastInputAt > RECENT_INPUT_MS || this.lastKey === 'Tab') return;
    this.takes = [...this.takes.filter((t) => at - t < TAKE_WINDOW_MS), at];
    const back = this.returnTo?.isConnected ? this.returnTo : doc.body;
    // Not from inside the blur: the browser finishes moving the focus first.
    setTimeout(() => {
      doc.defaultView?.focus();
      back.focus();
    }, 0);
    if (this.takes.length >= TAKES_TO_STOP) this.stop();
  };
}
