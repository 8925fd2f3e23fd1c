import type { HostEvents } from '../host-events.js';
import { isDeepLink, MAX_LINK_CHARS } from './deep-link.js';

/** Links kept for a window that has not taken them yet. */
const MAX_PENDING = 5;

/**
 * Install links the OS handed the desktop app (`open-url`, argv, a second instance), kept until
 * a window takes them: a link that arrives while the window is still loading is not lost, and
 * every open window hears `deepLink.opened` at once. Nothing here installs anything; a window
 * shows the link's preview and the person confirms there.
 */
export class DeepLinkInbox {
  private pending: string[] = [];

  constructor(private readonly events: HostEvents) {}

  /** Keep a link and announce it; anything that is not an install link is dropped. */
  offer(url: string): void {
    if (typeof url !== 'string' || url.length > MAX_LINK_CHARS || !isDeepLink(url)) return;
    this.pending = [...this.pending, url].slice(-MAX_PENDING);
    this.events.emit('deepLink.opened', { url });
  }

  /** The links no window has taken yet, oldest first; taking empties the inbox. */
  take(): string[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }
}
