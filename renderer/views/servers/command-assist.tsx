import { Scissors, TriangleAlert, Undo2 } from 'lucide-react';
import { useState, type ClipboardEvent, type Dispatch, type SetStateAction } from 'react';
import { analyseCommand, describeSplit, type CommandAnalysis } from './command-line.js';
import type { ServerFormValues } from './server-form-model.js';

type Split = { command: string; args: string[]; env: [string, string][] };
type Snapshot = Pick<ServerFormValues, 'command' | 'args' | 'env'>;

/** What the Command field's assist shows. */
interface AssistState {
  /** A split that was just made, with what to restore on Undo. */
  done: { summary: string; before: Snapshot } | null;
  /** Set once the field was left or pasted into: only then do warnings appear. */
  checked: boolean;
  /** A command the person chose to keep as it is (a path with spaces). */
  kept: string | null;
}

/** The Command field's assist: split on paste and on blur, warn where only the person can decide. */
export interface CommandAssist {
  onPaste: (e: ClipboardEvent<HTMLInputElement>) => void;
  onBlur: () => void;
  /** The person typed in Command: a split notice (and its Undo) no longer applies. */
  onEdit: () => void;
  /** Before saving: true when the command is fine to send as it is (else the assist shows why). */
  readyToSave: () => boolean;
  view: CommandAssistView;
}

interface CommandAssistView {
  done: AssistState['done'];
  warning: Exclude<CommandAnalysis, { kind: 'single' | 'split' }> | null;
  split: (s: Split) => void;
  keep: () => void;
  viaShell: () => void;
  undo: () => void;
}

function mergeEnv(env: string, add: [string, string][]): string {
  const keys = new Set(add.map(([k]) => k));
  const kept = env.split('\n').filter((l) => l.trim() !== '' && !keys.has(l.slice(0, l.indexOf('=')).trim()));
  return [...kept, ...add.map(([k, v]) => `${k}=${v}`)].join('\n');
}

/** The state and actions behind the Command field's assist. */
export function useCommandAssist(
  values: ServerFormValues,
  setValues: Dispatch<SetStateAction<ServerFormValues>>,
  focusCommand: () => void,
): CommandAssist {
  const [state, setState] = useState<AssistState>({ done: null, checked: false, kept: null });
  const apply = (split: Split, before: Snapshot) => {
    setValues((v) => ({
      ...v,
      command: split.command,
      args: split.args.join('\n'),
      env: split.env.length ? mergeEnv(v.env, split.env) : v.env,
    }));
    setState({ done: { summary: describeSplit(split), before }, checked: true, kept: null });
  };
  const analysis =
    state.kept === values.command ? ({ kind: 'single' } as const) : analyseCommand(values.command);
  const check = (command: string, before: Snapshot): boolean => {
    const a = state.kept === command ? ({ kind: 'single' } as const) : analyseCommand(command);
    if (a.kind === 'split') apply(a, before);
    else setState((s) => ({ ...s, checked: true }));
    return a.kind === 'single';
  };
  const snapshot = (): Snapshot => ({ command: values.command, args: values.args, env: values.env });
  return {
    onPaste: (e) => {
      const input = e.currentTarget;
      const pasted = e.clipboardData.getData('text');
      const start = input.selectionStart ?? input.value.length;
      const end = input.selectionEnd ?? input.value.length;
      const next = (input.value.slice(0, start) + pasted + input.value.slice(end)).replace(/\r?\n/g, ' ');
      const a = analyseCommand(next);
      if (a.kind !== 'split') {
        setState((s) => ({ ...s, checked: true, done: null }));
        return;
      }
      e.preventDefault();
      apply(a, { ...snapshot(), command: next });
    },
    onBlur: () => void check(values.command, snapshot()),
    onEdit: () => setState((s) => (s.done || s.checked ? { ...s, done: null, checked: false } : s)),
    readyToSave: () => {
      const ok = check(values.command, snapshot());
      if (!ok) focusCommand();
      return ok;
    },
    view: {
      done: state.done,
      warning: state.checked && analysis.kind !== 'single' && analysis.kind !== 'split' ? analysis : null,
      split: (s) => {
        apply(s, snapshot());
        focusCommand();
      },
      keep: () => setState((s) => ({ ...s, kept: values.command })),
      viaShell: () => {
        const before = snapshot();
        apply({ command: 'sh', args: ['-c', values.command.trim()], env: [] }, before);
        focusCommand();
      },
      undo: () => {
        const before = state.done?.before;
        if (!before) return;
        setValues((v) => ({ ...v, ...before }));
        // Undo means "I meant it as typed": do not split it again on the next blur.
        setState({ done: null, checked: false, kept: before.command });
        focusCommand();
      },
    },
  };
}

/** The notice under the Command field: the split just made (with Undo), or a choice to make. */
export function CommandAssistNotice({ view }: { view: CommandAssistView }) {
  if (view.done)
    return (
      <div className="form-assist" role="status" data-testid="command-split-notice">
        <Scissors aria-hidden size={15} />
        <span className="assist-text">
          Split the command line: {view.done.summary}. MCP Desk runs the program directly, without a shell.
        </span>
        <button type="button" className="small" onClick={view.undo} data-testid="command-split-undo">
          <Undo2 aria-hidden size={14} /> Undo
        </button>
      </div>
    );
  const w = view.warning;
  if (!w) return null;
  return (
    <div className="form-assist warn" role="alert" data-testid="command-warning" data-kind={w.kind}>
      <TriangleAlert aria-hidden size={15} />
      {w.kind === 'ambiguous' && (
        <>
          <span className="assist-text">
            The command contains spaces. Is it one program path with spaces in it, or a program followed by
            arguments?
          </span>
          <button
            type="button"
            className="small"
            onClick={() => view.split(w.split)}
            data-testid="command-split"
          >
            Split: <code>{w.split.command}</code> + {w.split.args.length} argument
            {w.split.args.length === 1 ? '' : 's'}
          </button>
          <button type="button" className="small" onClick={view.keep} data-testid="command-keep">
            Keep as one path
          </button>
        </>
      )}
      {w.kind === 'shell' && (
        <>
          <span className="assist-text">
            <code>{w.ops.join(' ')}</code> only works in a shell, and MCP Desk starts the program directly.
            Remove it, or run the whole line through <code>sh -c</code>.
          </span>
          <button type="button" className="small" onClick={view.viaShell} data-testid="command-via-shell">
            Run with sh -c
          </button>
        </>
      )}
      {w.kind === 'unbalanced' && (
        <span className="assist-text">A quote in the command is never closed: close it, or remove it.</span>
      )}
    </div>
  );
}
