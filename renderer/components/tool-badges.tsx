import type { ToolAnnotations } from '../../shared/domain/mcp-types.js';

/**
 * The hints a tool declares about itself. They are the server's claims, not guarantees,
 * so they are shown as stated and only when stated.
 */
export function ToolBadges({
  annotations,
  compact = false,
}: {
  annotations: ToolAnnotations | undefined;
  compact?: boolean;
}) {
  if (!annotations) return null;
  const badges: { label: string; className: string; title: string }[] = [];
  if (annotations.readOnlyHint === true)
    badges.push({
      label: 'read-only',
      className: 'ok',
      title: 'The server says this tool does not change anything.',
    });
  if (annotations.destructiveHint === true && annotations.readOnlyHint !== true) {
    badges.push({
      label: 'destructive',
      className: 'danger',
      title: 'The server says this tool may delete or overwrite data.',
    });
  }
  if (!compact && annotations.idempotentHint === true)
    badges.push({
      label: 'idempotent',
      className: 'subtle',
      title: 'Calling it twice has the same effect as once.',
    });
  if (!compact && annotations.openWorldHint === true)
    badges.push({
      label: 'open world',
      className: 'subtle',
      title: 'It reaches outside systems (web, APIs).',
    });
  return (
    <>
      {badges.map((b) => (
        <span key={b.label} className={`badge ${b.className}`} title={b.title}>
          {b.label}
        </span>
      ))}
    </>
  );
}
