import { useState, type FormEvent } from 'react';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { useChatSettings } from '../../hooks/use-chat-settings.js';

/** Why `text` cannot be the Gemini endpoint, or null ("" means Google's own). */
function endpointProblem(text: string): string | null {
  if (text === '') return null;
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:' ? null : 'Use an http:// or https:// address.';
  } catch {
    return 'This is not a web address. Write it in full, e.g. https://gateway.example.com.';
  }
}

/**
 * The Gemini API endpoint (a proxy, a company gateway, a local test server); empty means
 * Google's. --base-url and MCP_DESK_GEMINI_BASE_URL win over it, and the page says so.
 */
export function ModelEndpointSection({ override }: { override: string | null }) {
  const { settings, update } = useChatSettings();
  const saved = settings?.geminiBaseUrl ?? '';
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  const [note, setNote] = useState('');
  const value = draft ?? saved;
  const problem = endpointProblem(value.trim());

  const save = async (next: string) => {
    setNote('');
    const failed = await update({ geminiBaseUrl: next });
    setError(failed);
    if (!failed) {
      setDraft(null);
      setNote(
        next ? `Saved. The next Gemini request goes to ${next}.` : 'Saved. Gemini requests go to Google.',
      );
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!problem) void save(value.trim());
  };

  return (
    <section className="settings-section" aria-labelledby="settings-model">
      <h2 id="settings-model">Model endpoint</h2>
      <p className="muted settings-intro">
        The model, its API key and which tools it may use are in the chat’s settings panel (the gear in a
        conversation’s header).
      </p>
      <form className="field" onSubmit={onSubmit} noValidate>
        <label htmlFor="settings-gemini-url">Gemini API address</label>
        <div className="settings-inline">
          <input
            id="settings-gemini-url"
            type="url"
            inputMode="url"
            placeholder="https://generativelanguage.googleapis.com (default)"
            value={value}
            onChange={(e) => setDraft(e.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby="settings-gemini-url-help"
            disabled={!settings}
            data-testid="gemini-base-url"
          />
          <button
            type="submit"
            className="primary"
            disabled={!settings || problem !== null || value.trim() === saved}
            data-testid="gemini-base-url-save"
          >
            Save
          </button>
          <button
            type="button"
            disabled={!settings || saved === ''}
            onClick={() => void save('')}
            data-testid="gemini-base-url-reset"
          >
            Use Google’s
          </button>
        </div>
        <p className="field-help" id="settings-gemini-url-help">
          Leave empty for Google’s endpoint. Set it to reach Gemini through a proxy or gateway.
        </p>
        {problem && value.trim() !== '' && (
          <p className="field-error" data-testid="gemini-base-url-problem">
            {problem}
          </p>
        )}
        {override && (
          <p className="banner warn" data-testid="gemini-base-url-override">
            This session uses {override}, given with --base-url or MCP_DESK_GEMINI_BASE_URL when the app was
            started. It wins over the address above until the app starts without it.
          </p>
        )}
        <p className="field-help" role="status" data-testid="gemini-base-url-note">
          {note}
        </p>
      </form>
      {error && <ErrorBox error={error} testId="gemini-base-url-error" />}
    </section>
  );
}
