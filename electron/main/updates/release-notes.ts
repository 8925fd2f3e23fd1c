/** One version's notes, as electron-updater gives them with `fullChangelog`. */
interface VersionNote {
  version: string;
  note: string | null;
}

const MAX_NOTES = 2000;

/**
 * Release notes as plain text for a dialog: GitHub hands electron-updater the release body as
 * HTML, and a native dialog shows text only. Capped, since a release body has no size limit.
 */
export function releaseNotesText(notes: string | readonly VersionNote[] | null | undefined): string {
  if (!notes) return '';
  const text =
    typeof notes === 'string'
      ? htmlToText(notes)
      : notes
          .map((n) => `${n.version}\n${htmlToText(n.note ?? '')}`)
          .join('\n\n')
          .trim();
  return text.length > MAX_NOTES ? `${text.slice(0, MAX_NOTES - 1)}…` : text;
}

/** Block tags become line breaks, list items bullets, every other tag goes; entities decoded. */
function htmlToText(html: string): string {
  return html
    .replace(/<li[^>]*>/gi, '\n• ')
    .replace(/<(br|\/p|\/h[1-6]|\/ul|\/ol|\/div)[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
