import type { Prompt } from '../../shared/domain/mcp-types.js';
import { ArgumentFields } from './argument-fields.js';

/**
 * A prompt's arguments as fields, with its server's completions: the same form in the Prompts
 * view and behind the chat's `/` menu.
 */
export function PromptArgumentFields(props: {
  idPrefix: string;
  serverId: string;
  prompt: Prompt;
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
  canComplete: boolean;
  disabled?: boolean;
}) {
  const { idPrefix, serverId, prompt, values, onChange, canComplete, disabled } = props;
  return (
    <ArgumentFields
      idPrefix={idPrefix}
      fields={(prompt.arguments ?? []).map((a) => ({
        name: a.name,
        label: a.title ?? a.name,
        description: a.description,
        required: a.required === true,
      }))}
      values={values}
      onChange={onChange}
      serverId={serverId}
      completionRef={{ type: 'ref/prompt', name: prompt.name }}
      completionEnabled={canComplete}
      disabled={disabled}
    />
  );
}

/** The required arguments still empty, by title: submitting waits for them. */
export function missingArguments(prompt: Prompt, values: Record<string, string>): string[] {
  return (prompt.arguments ?? []).filter((a) => a.required && !values[a.name]).map((a) => a.title ?? a.name);
}

/** The arguments for `prompts.get`: empty optional ones are left out rather than sent as "". */
export function argumentsToSend(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
}
