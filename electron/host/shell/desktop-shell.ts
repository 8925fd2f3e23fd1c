/**
 * What the window system around the host can do for it. The Electron main process
 * implements this with dialog and BrowserWindow; browser mode and the CLI have no shell,
 * so every caller treats it as optional and says clearly what is not available.
 */
export interface DesktopShell {
  /** Open the OS folder picker; the chosen absolute paths, or [] when the person cancelled. */
  pickFolders(): Promise<string[]>;
  /** Bring the main window forward showing a conversation (it may have been hidden in the tray). */
  showConversation(conversationId: string): void;
}
