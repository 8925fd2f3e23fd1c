/**
 * A fresh id for a call the renderer may later cancel. randomUUID needs a secure context;
 * loopback http and Electron's file:// are, but a custom scheme might not be.
 */
export function newCallId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
