import type { ReactElement } from 'react';
import { FormRow } from './form-field.js';
import type { FormField, ServerFormValues } from './server-form-model.js';

type InputProps = (
  field: FormField,
  props?: { placeholder?: string; mono?: boolean },
) => Record<string, unknown>;
type ErrProps = (field: FormField) => { error?: string; errorTestId: string };

/**
 * Sign-in settings of a remote server. Most servers need none (the app registers itself);
 * a client pre-registered with the authorization server is entered here, its secret written
 * as `${secret:NAME}` so that the value goes into the keychain through the write-only row
 * below the form, never into the config file.
 */
export function OAuthFields({
  values,
  input,
  err,
}: {
  values: ServerFormValues;
  input: InputProps;
  err: ErrProps;
}): ReactElement {
  const used = !!(values.oauthClientId || values.oauthClientSecret || values.oauthScope);
  return (
    <details className="advanced" open={used} data-testid="server-oauth">
      <summary>Sign-in (OAuth)</summary>
      <p className="field-help">
        Leave empty to let MCP Desk register itself with the server’s authorization server. Fill in a client
        ID only if the server’s operator gave you one.
      </p>
      <FormRow id="server-oauthClientId" label="Client ID (pre-registered)" {...err('oauthClientId')}>
        <input {...input('oauthClientId', { mono: true })} />
      </FormRow>
      <FormRow
        id="server-oauthClientSecret"
        label="Client secret"
        help="Write ${secret:NAME}; then enter the value in the write-only field that appears below."
        {...err('oauthClientSecret')}
      >
        <input {...input('oauthClientSecret', { placeholder: '${secret:my-oauth-client}', mono: true })} />
      </FormRow>
      <FormRow
        id="server-oauthScope"
        label="Scopes"
        help="Space-separated; empty lets the server say what it needs."
        {...err('oauthScope')}
      >
        <input {...input('oauthScope', { mono: true })} />
      </FormRow>
    </details>
  );
}
