/** The two IPC channel names the Electron preload and main use; nothing else is listened to. */
export const INVOKE_CHANNEL = 'mcp-desk:invoke';
export const EVENT_CHANNEL = 'mcp-desk:event';
