import type { HostApi } from '../../../shared/ipc/contract.js';
import type { HostError } from '../../../shared/ipc/host-error.js';
import { asHostError } from '../../host/errors.js';

/**
 * The view's requests go to the host through these channels (agreed with the host side of
 * issue 13); the host decides what a view may do. Named by string here because they join the
 * contract with the host's branch: until then the host answers `unknown_channel`, which the
 * view receives as a JSON-RPC error like any other refusal.
 */
export type AppChannel =
  | 'apps.callTool'
  | 'apps.readResource'
  | 'apps.log'
  | 'apps.message'
  | 'apps.updateModelContext'
  | 'apps.openLink'
  | 'apps.setPermissions';

/** A refusal or failure from the host, carried to the view as a JSON-RPC error message. */
export class AppRequestError extends Error {
  constructor(readonly hostError: HostError) {
    super(`${hostError.code}: ${hostError.message}`);
  }
}

/** Invoke one of the app channels; a host failure rejects with AppRequestError. */
export async function callApp<T>(
  host: HostApi,
  channel: AppChannel,
  request: Record<string, unknown>,
): Promise<T> {
  const invoke = host.invoke.bind(host) as unknown as (c: string, r: unknown) => Promise<unknown>;
  try {
    return (await invoke(channel, request)) as T;
  } catch (error) {
    throw new AppRequestError(asHostError(error));
  }
}
