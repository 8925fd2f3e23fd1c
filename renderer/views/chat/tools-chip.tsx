import { Wrench } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import type { CatalogTool } from '../../../shared/domain/catalog.js';
import type { ChatSettings, ToolSwitches } from '../../../shared/domain/chat.js';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { useHost } from '../../host/host-context.js';
import { useBusyCall } from '../../hooks/use-busy-call.js';
import { ToolsChipOffer } from './tools-chip-offer.js';

/** Whether `serverId` is offered in a chat with `switches` (its own word first, then the settings). */
export function serverOn(
  serverId: string,
  settings: ChatSettings,
  switches: ToolSwitches | undefined,
): boolean {
  return switches?.servers?.[serverId] ?? !settings.disabledServers.includes(serverId);
}

function toolOn(t: CatalogTool, settings: ChatSettings, switches: ToolSwitches | undefined): boolean {
  const key = `${t.serverId}/${t.tool.name}`;
  return t.enabled && (switches?.tools?.[key] ?? !settings.disabledTools.includes(key));
}

/**
 * The composer's chip: which servers (and how many of their tools) the model is offered in
 * this chat. It opens a popover of per-chat server switches; the chat settings are the default.
 */
export function ToolsChip({
  conversationId,
  switches,
  settings,
  servers,
  tools,
  ensureConversation,
  onSwitches,
}: {
  conversationId: string | null;
  switches: ToolSwitches | undefined;
  settings: ChatSettings;
  servers: readonly ServerSummary[];
  tools: readonly CatalogTool[];
  /** The open conversation's id, creating one when none is open. */
  ensureConversation: () => Promise<string>;
  onSwitches: (conversationId: string, switches: ToolSwitches) => void;
}) {
  const host = useHost();
  const [open, setOpen] = useState(false);
  const { busy, error, run } = useBusyCall();
  const chip = useRef<HTMLButtonElement | null>(null);
  const panel = useRef<HTMLDivElement | null>(null);
  const panelId = useId();

  const close = () => {
    setOpen(false);
    chip.current?.focus();
  };

  const countFor = (serverId: string) =>
    tools.filter((t) => t.serverId === serverId && toolOn(t, settings, switches)).length;
  const onServers = servers.filter((s) => serverOn(s.id, settings, switches));
  // Counted as offered only while connected: a failed server offers nothing, and the chip says so.
  const liveServers = onServers.filter((s) => s.state.kind === 'connected');
  const failed = servers.filter((s) => s.state.kind === 'failed').length;
  const toolCount = onServers.reduce((n, s) => n + countFor(s.id), 0);
  const custom = Boolean(switches?.servers || switches?.tools);

  useEffect(() => {
    if (!open) return undefined;
    panel.current?.querySelector<HTMLInputElement>('input')?.focus();
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!panel.current?.contains(t) && !chip.current?.contains(t)) setOpen(false);
    };
    // Escape inside the popover closes it and hands focus back to the chip.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !panel.current?.contains(document.activeElement)) return;
      e.stopPropagation();
      close();
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const toggle = (serverId: string, on: boolean) => {
    // Not disabled while saving (a disabled switch would drop the focus, and Escape with it).
    if (busy) return;
    const save = async () => {
      const id = await ensureConversation();
      return {
        id,
        next: await host.invoke('chat.setToolSwitches', { conversationId: id, servers: { [serverId]: on } }),
      };
    };
    run(save(), ({ id, next }) => onSwitches(id, next));
  };

  return (
    <div className="tools-chip-wrap">
      <button
        ref={chip}
        type="button"
        className={`chip tools-chip${custom ? ' custom' : ''}`}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
        title="Servers and tools the model can use in this chat"
        data-testid="tools-chip"
      >
        <Wrench size={13} aria-hidden="true" />
        {liveServers.length} of {servers.length} {servers.length === 1 ? 'server' : 'servers'} · {toolCount}{' '}
        {toolCount === 1 ? 'tool' : 'tools'}
        {failed > 0 && (
          <span className="chip-failed" data-testid="tools-chip-failed">
            {' '}
            · {failed} failed
          </span>
        )}
        {custom && <span className="muted"> · this chat</span>}
      </button>
      {open && (
        <div
          ref={panel}
          id={panelId}
          className="tools-popover panel"
          role="dialog"
          aria-label="Servers for this chat"
          data-testid="tools-popover"
        >
          <p className="muted small-note">
            Switches here apply to this chat only{conversationId ? '' : ' (a new chat starts)'}; Chat settings
            set the default.
          </p>
          {servers.length === 0 && <p className="muted">No servers yet.</p>}
          <ul className="tools-popover-list" aria-busy={busy}>
            {servers.map((s) => {
              const on = serverOn(s.id, settings, switches);
              const connected = s.state.kind === 'connected';
              const n = countFor(s.id);
              return (
                <li key={s.id}>
                  <label className="switch-row" data-testid={`tools-switch-${s.id}`}>
                    <input
                      type="checkbox"
                      role="switch"
                      checked={on}
                      onChange={(e) => toggle(s.id, e.target.checked)}
                      aria-describedby={`${panelId}-${s.id}`}
                    />
                    <span className="switch-name">{s.id}</span>
                  </label>
                  <span
                    id={`${panelId}-${s.id}`}
                    className={s.state.kind === 'failed' ? 'error-text switch-count' : 'muted switch-count'}
                  >
                    {connected
                      ? `${n} ${n === 1 ? 'tool' : 'tools'}`
                      : s.state.kind === 'failed'
                        ? 'failed to start'
                        : 'not connected'}
                  </span>
                </li>
              );
            })}
          </ul>
          <ToolsChipOffer
            conversationId={conversationId}
            tools={tools}
            ensureConversation={ensureConversation}
          />
          {error && <ErrorBox error={error} testId="tools-chip-error" />}
          <div className="inline-row">
            <button type="button" className="small" onClick={close}>
              Done
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
