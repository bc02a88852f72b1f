// SharePoint's answers when it will not serve a request for load: throttled (429), too busy or
// blocked (503), a gateway that gave up (504), and the errors a fault rule may name. SharePoint
// documents the statuses and Retry-After, not the bodies: codes and texts here are inferred
// (docs/compatibility.md, "Throttling and faults").

import { errors, SpError } from './errors.ts';

const UNKNOWN = 'Microsoft.SharePoint.Client.UnknownError';
const TOO_BUSY = 'Microsoft.SharePoint.SPServerTooBusyException';

export const loadErrors = {
  /** 429 with integer Retry-After (PnPjs parses it with parseInt) and any RateLimit-* headers. */
  throttled: (retryAfter: number, headers: Record<string, string> = {}) =>
    new SpError(429, `-1, ${TOO_BUSY}`, 'The request has been throttled. Please retry after the time the Retry-After header gives.',
      { 'Retry-After': String(retryAfter), ...headers }),

  /** 503 for an app SharePoint has blocked for exceeding its limits again and again. */
  appBlocked: (retryAfter: number) =>
    new SpError(503, `-1, ${TOO_BUSY}`, 'Server Too Busy. The application has been blocked for exceeding its usage limits.',
      { 'Retry-After': String(retryAfter) }),

  serverBusy: (retryAfter: number) => errors.serviceUnavailable(retryAfter),

  gatewayTimeout: () => new SpError(504, `-1, ${UNKNOWN}`, 'The operation has timed out.'),

  /** A 500 as SharePoint's unhandled errors look (no correlation details). */
  internal: () => new SpError(500, `-1, ${UNKNOWN}`, 'Unknown Error'),
} as const;

/** The error a fault rule answers: a status, or a named SharePoint error. */
export function faultError(error: number | string, retryAfter: number): SpError {
  switch (error) {
    case 429: case 'throttled': return loadErrors.throttled(retryAfter);
    case 503: case 'serverBusy': return loadErrors.serverBusy(retryAfter);
    case 504: case 'gatewayTimeout': return loadErrors.gatewayTimeout();
    case 'listViewThreshold': return errors.listViewThreshold();
    // -2130575252: "The security validation for this page has timed out" (an expired digest).
    case 'securityValidation': return errors.digestExpired();
    case 'digestInvalid': return errors.digestInvalid();
    case 'accessDenied': return errors.accessDenied();
    default: return loadErrors.internal();
  }
}
