/**
 * Save text as a file through a Blob URL and a `download` link: works the same in a
 * browser tab and in Electron (which shows its save dialog), with no host file access.
 */
export function downloadText(filename: string, mimeType: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoking at once can cancel the download in some engines; a moment later is safe.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
