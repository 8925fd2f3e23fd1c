import { useEffect, useState } from 'react';
import type { InstallOutcome, InstallPreview, ResolvedInstall } from '../../../shared/domain/registry.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { useDebounced } from '../../hooks/use-debounced.js';

/** The state of one install preview: the chosen option, the values, what they resolve to. */
export interface InstallForm {
  option: string;
  setOption: (id: string) => void;
  name: string;
  setName: (name: string) => void;
  values: Record<string, string>;
  setValue: (id: string, value: string) => void;
  resolved: ResolvedInstall | null;
  resolveError: HostError | null;
  install: () => Promise<void>;
  installing: boolean;
  outcome: InstallOutcome | null;
  installError: HostError | null;
}

/**
 * The form behind the install dialog. What the entry will look like is always the host's
 * answer (`registry.resolve`, debounced while typing): the renderer never builds an entry itself.
 */
export function useInstallForm(preview: InstallPreview): InstallForm {
  const host = useHost();
  const firstAvailable = preview.options.find((o) => o.available)?.id ?? preview.options[0]?.id ?? '';
  const [option, setOptionState] = useState(firstAvailable);
  const [name, setName] = useState(preview.suggestedName);
  const [values, setValues] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<{ request: string; resolved: ResolvedInstall } | null>(null);
  const [resolveError, setResolveError] = useState<HostError | null>(null);
  const [installing, setInstalling] = useState(false);
  const [outcome, setOutcome] = useState<InstallOutcome | null>(null);
  const [installError, setInstallError] = useState<HostError | null>(null);
  const request = useDebounced(JSON.stringify({ option, name, values }), 200);

  useEffect(() => {
    const {
      option: o,
      name: n,
      values: v,
    } = JSON.parse(request) as {
      option: string;
      name: string;
      values: Record<string, string>;
    };
    const chosen = preview.options.find((x) => x.id === o);
    if (!chosen?.available || chosen.bundle || !n.trim()) return;
    let live = true;
    host
      .invoke('registry.resolve', { previewId: preview.previewId, option: o, values: v, name: n.trim() })
      .then(
        (r) => {
          if (!live) return;
          setAnswer({ request, resolved: r });
          setResolveError(null);
        },
        (e: unknown) => live && setResolveError(asHostError(e)),
      );
    return () => {
      live = false;
    };
  }, [host, preview, request]);

  return {
    option,
    setOption: (id) => {
      setOptionState(id);
      setValues({});
    },
    name,
    setName,
    values,
    setValue: (id, value) => setValues((v) => ({ ...v, [id]: value })),
    // Only the answer to what the form says now: an older one would show a stale entry.
    resolved: answer?.request === request ? answer.resolved : null,
    resolveError,
    installing,
    outcome,
    installError,
    install: async () => {
      setInstalling(true);
      setInstallError(null);
      try {
        setOutcome(
          await host.invoke('registry.install', {
            previewId: preview.previewId,
            option,
            values,
            name: name.trim(),
          }),
        );
      } catch (e) {
        setInstallError(asHostError(e));
      } finally {
        setInstalling(false);
      }
    },
  };
}
