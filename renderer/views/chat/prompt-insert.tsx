import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { CatalogPrompt } from '../../../shared/domain/catalog.js';
import { ErrorBox } from '../../components/error-box.js';
import {
  PromptArgumentFields,
  argumentsToSend,
  missingArguments,
} from '../../components/prompt-argument-fields.js';
import { useHost } from '../../host/host-context.js';
import { useBusyCall } from '../../hooks/use-busy-call.js';
import { useEscapeWithin } from '../../hooks/use-escape-within.js';
import { slashName } from './prompt-menu.js';
import { promptText } from './prompt-text.js';

/**
 * The arguments of a prompt chosen from the `/` menu; on Insert it is expanded by its
 * server (prompts.get) and the text goes into the composer for the person to edit and send.
 */
export function PromptInsert({
  entry,
  canComplete,
  onInsert,
  onCancel,
}: {
  entry: CatalogPrompt;
  canComplete: boolean;
  onInsert: (text: string) => void;
  onCancel: () => void;
}) {
  const host = useHost();
  const { serverId, prompt } = entry;
  const [values, setValues] = useState<Record<string, string>>({});
  const { busy, error, run } = useBusyCall();
  const form = useRef<HTMLFormElement>(null);
  // Choosing a prompt moves focus into its form: the first argument, or Insert when it has none,
  // so a keyboard user goes straight on typing (Escape returns to the composer).
  useEffect(() => {
    const first = form.current?.querySelector<HTMLElement>('input, textarea, select, button[type="submit"]');
    first?.focus();
  }, [serverId, prompt.name]);
  useEscapeWithin(form, onCancel);
  const missing = missingArguments(prompt, values);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const args = argumentsToSend(values);
    run(host.invoke('prompts.get', { serverId, name: prompt.name, args }), (result) =>
      onInsert(promptText(result)),
    );
  };

  return (
    <form
      ref={form}
      className="composer-popover prompt-insert"
      onSubmit={onSubmit}
      data-testid="prompt-insert"
    >
      <div className="detail-head">
        <strong className="mono">/{slashName(entry)}</strong>
        {prompt.title && <span>{prompt.title}</span>}
      </div>
      {prompt.description && <p className="muted small-print">{prompt.description}</p>}
      <PromptArgumentFields
        idPrefix="chat-prompt-arg"
        serverId={serverId}
        prompt={prompt}
        values={values}
        onChange={setValues}
        canComplete={canComplete}
        disabled={busy}
      />
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={busy || missing.length > 0}
          data-testid="prompt-insert-submit"
        >
          {busy ? 'Getting…' : 'Insert'}
        </button>
        <button type="button" onClick={onCancel} data-testid="prompt-insert-cancel" data-esc-close>
          Cancel
        </button>
        {missing.length > 0 && <span className="muted small-print">Fill in {missing.join(', ')}</span>}
      </div>
      {error && <ErrorBox error={error} testId="prompt-insert-error" />}
    </form>
  );
}
