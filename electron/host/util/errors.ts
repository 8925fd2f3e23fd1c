import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { HostError, HostErrorCode, HostErrorDetails } from '../../../shared/ipc/host-error.js';
import { plainFailure } from './plain-failure.js';
import type { Redactor } from './redact.js';

/** An error the host raises on purpose, with a code the UI and CLI can act on. */
export class HostFailure extends Error {
  constructor(
    readonly code: HostErrorCode,
    message: string,
    readonly details?: HostErrorDetails,
  ) {
    super(message);
    this.name = 'HostFailure';
  }
}

/**
 * Why a request was cancelled, as an abort reason. The SDK sends `String(reason)` to the server
 * as notifications/cancelled's reason: that reads "cancelled by the user", not "HostFailure: …".
 */
export class Cancellation extends HostFailure {
  constructor(message: string) {
    super('cancelled', message);
  }

  override toString(): string {
    return this.message;
  }
}

/** The SDK's codes as ours: a Record, so a code the SDK adds fails the typecheck here. */
const SDK_CODES: Record<SdkErrorCode, HostErrorCode> = {
  [SdkErrorCode.NotConnected]: 'not_connected',
  [SdkErrorCode.AlreadyConnected]: 'already_connected',
  [SdkErrorCode.NotInitialized]: 'not_initialized',
  [SdkErrorCode.CapabilityNotSupported]: 'capability_not_supported',
  [SdkErrorCode.RequestTimeout]: 'timeout',
  [SdkErrorCode.ConnectionClosed]: 'connection_closed',
  [SdkErrorCode.SendFailed]: 'send_failed',
  [SdkErrorCode.InvalidResult]: 'invalid_result',
  [SdkErrorCode.UnsupportedResultType]: 'unsupported_result_type',
  [SdkErrorCode.InputRequiredRoundsExceeded]: 'input_required_rounds_exceeded',
  [SdkErrorCode.ListPaginationExceeded]: 'list_pagination_exceeded',
  [SdkErrorCode.MethodNotSupportedByProtocolVersion]: 'method_not_supported_by_protocol_version',
  [SdkErrorCode.EraNegotiationFailed]: 'era_negotiation_failed',
  [SdkErrorCode.ClientHttpNotImplemented]: 'client_http_not_implemented',
  [SdkErrorCode.ClientHttpAuthentication]: 'client_http_authentication',
  [SdkErrorCode.ClientHttpForbidden]: 'client_http_forbidden',
  [SdkErrorCode.ClientHttpUnexpectedContent]: 'client_http_unexpected_content',
  [SdkErrorCode.ClientHttpFailedToOpenStream]: 'client_http_failed_to_open_stream',
  [SdkErrorCode.ClientHttpFailedToTerminateSession]: 'client_http_failed_to_terminate_session',
};

/**
 * The host's one converter: anything thrown becomes the serialisable HostError that crosses
 * to the renderer and the CLI, with secrets scrubbed from the message and, where an errno
 * sits at the root, what it means in words.
 */
export function toHostError(error: unknown, redactor?: Redactor): HostError {
  const scrub = (text: string): string => (redactor ? redactor.redactText(text) : text);
  if (error instanceof HostFailure) {
    return {
      code: error.code,
      message: scrub(error.message),
      ...(error.details ? { details: error.details } : {}),
    };
  }
  if (error instanceof SdkError) {
    // A code from a newer SDK than the one typed here is still an error, just not a named one.
    const code = (SDK_CODES as Partial<Record<string, HostErrorCode>>)[error.code] ?? 'error';
    // "probe failed: fetch failed" hides the actionable part (ECONNREFUSED) in the cause chain:
    // say that part in plain words first, and keep the SDK's text as the technical detail.
    const plain = plainFailure(error) ?? sdkPlain(code);
    if (plain)
      return {
        code: plain.code,
        message: scrub(plain.message),
        details: { technical: scrub(error.message) },
      };
    return { code, message: scrub(error.message) };
  }
  if (error instanceof ProtocolError) {
    return { code: 'protocol_error', message: scrub(error.message), details: { rpcCode: error.code } };
  }
  if (error instanceof Error) {
    if (error.name === 'AbortError') return { code: 'cancelled', message: 'cancelled' };
    const plain = plainFailure(error);
    if (plain)
      return {
        code: plain.code,
        message: scrub(plain.message),
        details: { technical: scrub(error.message) },
      };
    return { code: 'error', message: scrub(error.message) };
  }
  return { code: 'error', message: scrub(String(error)) };
}

/** The SDK's HTTP refusals in plain words (other SDK texts are already specific enough). */
function sdkPlain(code: HostErrorCode): { code: HostErrorCode; message: string } | undefined {
  if (code === 'client_http_authentication')
    return {
      code,
      message:
        'Sign-in required — the server answered 401 Unauthorized; sign in, or check the Authorization header',
    };
  if (code === 'client_http_forbidden')
    return {
      code,
      message:
        'Access denied — the server answered 403 Forbidden; check the credentials and what they may use',
    };
  return undefined;
}

/** Collapse a zod-style issue list into one line naming the field. */
export function describeIssues(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}
