import { ShieldAlert, ShieldCheck } from 'lucide-react';
import type { BundlePreview } from '../../../shared/domain/bundles.js';

/** What the bundle is: who made it, what it declares, its signature and whether it runs here. */
export function BundleSummary({ preview: p }: { preview: BundlePreview }) {
  const signed = p.signature.status === 'signed';
  return (
    <div className="bundle-summary" data-testid="bundle-summary">
      <p>{p.description}</p>
      <dl className="bundle-facts">
        <dt>Version</dt>
        <dd data-testid="bundle-version">
          {p.installed ? `${p.installed.version} → ${p.version}` : p.version}
        </dd>
        <dt>Author</dt>
        <dd>
          {p.author.name}
          {p.author.email ? ` <${p.author.email}>` : ''}
        </dd>
        <dt>Signature</dt>
        <dd data-testid="bundle-signature" className={signed ? 'ok-text' : 'warn-text'}>
          {signed ? (
            <ShieldCheck size={14} aria-hidden="true" />
          ) : (
            <ShieldAlert size={14} aria-hidden="true" />
          )}{' '}
          {p.signature.status === 'signed'
            ? `Signed by ${p.signature.publisher ?? 'a trusted publisher'}`
            : p.signature.status === 'self-signed'
              ? `Self-signed${p.signature.publisher ? ` by ${p.signature.publisher}` : ''}: the publisher is not verified`
              : 'Not signed: only install bundles from people you trust'}
        </dd>
        <dt>Runs on</dt>
        <dd>
          {p.serverType === 'node' ? 'Node.js (the app’s own)' : p.serverType}
          {p.compatibility.platforms ? ` · ${p.compatibility.platforms.join(', ')}` : ''}
          {p.compatibility.runtimes?.node ? ` · Node ${p.compatibility.runtimes.node}` : ''}
          {p.compatibility.runtimes?.python ? ` · Python ${p.compatibility.runtimes.python}` : ''}
        </dd>
        <dt>Server name</dt>
        <dd className="mono">{p.serverName}</dd>
      </dl>
      {!p.compatibility.ok && (
        <div className="error-box" role="alert" data-testid="bundle-incompatible">
          <span className="error-message">Cannot run here: {p.compatibility.problems.join('; ')}</span>
        </div>
      )}
      {p.conflict && (
        <div className="error-box" role="alert" data-testid="bundle-conflict">
          <span className="error-message">{p.conflict}</span>
        </div>
      )}
      <Declared title="Tools" items={p.tools} more={p.toolsGenerated} testId="bundle-tools" />
      {(p.prompts.length > 0 || p.promptsGenerated) && (
        <Declared title="Prompts" items={p.prompts} more={p.promptsGenerated} testId="bundle-prompts" />
      )}
    </div>
  );
}

function Declared({
  title,
  items,
  more,
  testId,
}: {
  title: string;
  items: { name: string; description?: string }[];
  more: boolean;
  testId: string;
}) {
  return (
    <>
      <h3>{title}</h3>
      {items.length === 0 && !more ? (
        <p className="muted">None declared.</p>
      ) : (
        <ul className="bundle-declared" data-testid={testId}>
          {items.map((t) => (
            <li key={t.name}>
              <code>{t.name}</code>
              {t.description ? ` — ${t.description}` : ''}
            </li>
          ))}
          {more && <li className="muted">…and more the server makes when it runs.</li>}
        </ul>
      )}
    </>
  );
}
