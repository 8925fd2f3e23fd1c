import { useState } from 'react';
import type { InstallPreview, RegistryEntry } from '../../../shared/domain/registry.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { InstallDialog } from '../../components/install-preview/install-dialog.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { useAppSettings } from '../../hooks/use-app-settings.js';
import { useDebounced } from '../../hooks/use-debounced.js';
import { RegistryUrlField } from './registry-url-field.js';
import { ServerJsonPanel } from './server-json-panel.js';
import { useRegistrySearch } from './use-registry-search.js';

/**
 * Browse an MCP registry (the official one unless another is set): search, page through the
 * results, open one to see its install preview. "Add from server.json…" previews a pasted or
 * chosen file the same way.
 */
export function RegistryView() {
  const host = useHost();
  const { state } = useAppSettings();
  const registryUrl = state?.settings.registryUrl ?? '';
  const [query, setQuery] = useState('');
  const search = useRegistrySearch(useDebounced(query, 300), registryUrl);
  const [preview, setPreview] = useState<InstallPreview | null>(null);
  const [previewError, setPreviewError] = useState<HostError | null>(null);
  const [pasting, setPasting] = useState(false);

  const open = (req: { name: string } | { serverJson: string }) =>
    host.invoke('registry.preview', req).then(
      (p) => {
        setPreviewError(null);
        setPreview(p);
      },
      (e: unknown) => setPreviewError(asHostError(e)),
    );

  return (
    <section className="view registry-view" data-testid="registry-view">
      <header className="view-header">
        <h1>Registry</h1>
        <div className="header-actions">
          <button type="button" onClick={() => setPasting((p) => !p)} data-testid="registry-add-json">
            Add from server.json…
          </button>
        </div>
      </header>
      <div className="registry-body">
        <RegistryUrlField />
        {pasting && (
          <ServerJsonPanel
            onPreview={(text) => open({ serverJson: text })}
            onClose={() => setPasting(false)}
          />
        )}
        {previewError && <ErrorBox error={previewError} testId="registry-preview-error" />}
        <div className="field registry-search">
          <label htmlFor="registry-search">Search servers by name</label>
          <input
            id="registry-search"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="e.g. github, filesystem"
            data-testid="registry-search"
          />
        </div>
        {search.error && <ErrorBox error={search.error} testId="registry-error" />}
        <ul className="registry-results" aria-busy={search.loading} data-testid="registry-results">
          {search.entries.map((e) => (
            <RegistryRow
              key={`${e.name}@${e.version}`}
              entry={e}
              onOpen={() => void open({ name: e.name })}
            />
          ))}
        </ul>
        {!search.loading && !search.error && search.entries.length === 0 && (
          <p className="muted" data-testid="registry-empty">
            No servers match.
          </p>
        )}
        {search.loading && <p className="muted">Loading…</p>}
        {search.more && !search.loading && (
          <button type="button" onClick={search.loadMore} data-testid="registry-more">
            Load more
          </button>
        )}
      </div>
      {preview && (
        <InstallDialog key={preview.previewId} preview={preview} onClose={() => setPreview(null)} />
      )}
    </section>
  );
}

function RegistryRow({ entry, onOpen }: { entry: RegistryEntry; onOpen: () => void }) {
  const kinds = [...entry.packageTypes, ...entry.remoteTypes.map((t) => `remote ${t}`)];
  return (
    <li className="registry-row" data-testid={`registry-entry-${entry.name}`}>
      <div className="registry-row-main">
        <h2 className="registry-title">{entry.title ?? entry.name}</h2>
        <span className="muted">
          {entry.name} · {entry.version}
          {entry.status && entry.status !== 'active' ? ` · ${entry.status}` : ''}
        </span>
        {entry.description && <p>{entry.description}</p>}
        <div className="registry-kinds">
          {kinds.length ? (
            kinds.map((k) => (
              <span className="badge subtle" key={k}>
                {k}
              </span>
            ))
          ) : (
            <span className="badge subtle">nothing to install</span>
          )}
        </div>
      </div>
      <button type="button" onClick={onOpen} aria-label={`Install ${entry.title ?? entry.name}…`}>
        Install…
      </button>
    </li>
  );
}
