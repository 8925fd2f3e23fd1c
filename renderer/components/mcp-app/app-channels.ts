import type { HostApi, RequestOf, ResponseOf } from '../../../shared/ipc/contract.js';
import type { HostError } from '../../../shared/ipc/host-error.js';
import { asHostError } from '../../host/errors.js';

/** The channels a view's requests go through; the host decides what a view may do. */
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
export async function callApp<C extends AppChannel>(
  host: HostApi,
  channel: C,
  request: RequestOf<C>,
): Promise<ResponseOf<C>> {
  try {
    return await host.invoke(channel, request);
  } catch (error) {
    throw new AppRequestError(asHostError(error));
  }
}
