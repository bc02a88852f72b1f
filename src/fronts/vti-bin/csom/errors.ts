// CSOM's failures, in the shape ProcessQuery reports them: HTTP 200 and, as the answer's first
// element, an ErrorInfo with the exception's message, HRESULT and .NET type name. A domain or
// REST failure keeps the HRESULT and type SharePoint's REST catalogue gives it (the same
// exception reaches both protocols on SharePoint); anything else is the caller's to log.

import { DomainError } from '../../../domain/errors.ts';
import { SpError, toSpError } from '../../../wire/errors.ts';

export interface ErrorInfo {
  ErrorMessage: string;
  ErrorValue: null;
  TraceCorrelationId: string;
  ErrorCode: number;
  ErrorTypeName: string;
  ErrorDetails?: unknown;
}

export class CsomError extends Error {
  constructor(message: string, readonly code: number, readonly typeName: string) {
    super(message);
    this.name = 'CsomError';
  }
}

/** E_INVALIDARG, System.ArgumentException's HRESULT. */
const E_INVALIDARG = -2147024809;
/** E_NOTIMPL, the HRESULT of System.NotImplementedException. */
const E_NOTIMPL = -2147467263;
const INVALID_QUERY = 'Microsoft.SharePoint.Client.InvalidClientQueryException';

export const csomErrors = {
  /** What spemu does not serve (yet): an object type, member or method of CSOM's it does not know. */
  notImplemented: (what: string) => new CsomError(
    `The client-side object model (client.svc/ProcessQuery) is not implemented by spemu for ${what}: use the REST API (/_api).`,
    E_NOTIMPL, 'System.NotImplementedException'),
  /** A body that is not a well-formed CSOM request. */
  invalidRequest: (detail: string) => new CsomError(`The request XML is not valid. ${detail}`.trim(), E_INVALIDARG, INVALID_QUERY),
  /** An action or path naming an object path the request does not define, or one that failed. */
  unknownPath: (id: string) => new CsomError(`The object path '${id}' is not valid.`, E_INVALIDARG, INVALID_QUERY),
  badParameter: (name: string) => new CsomError(`Cannot convert the parameter '${name}' to the type the method expects.`, E_INVALIDARG, INVALID_QUERY),
};

/** The ErrorInfo for a failure: CSOM's own, or a domain/REST one (SharePoint's code and text), else undefined. */
export function errorInfoOf(e: unknown, correlationId: string): ErrorInfo | undefined {
  if (e instanceof CsomError) return info(e.message, e.code, e.typeName, correlationId);
  if (e instanceof DomainError || e instanceof SpError) {
    const sp = toSpError(e);
    // "<hresult>, <type>" as the REST catalogue writes it.
    const comma = sp.code.indexOf(',');
    const hresult = Number(sp.code.slice(0, comma));
    return info(sp.message, Number.isFinite(hresult) ? hresult : -1, sp.code.slice(comma + 1).trim(), correlationId);
  }
  return undefined;
}

const info = (message: string, code: number, typeName: string, correlationId: string): ErrorInfo =>
  ({ ErrorMessage: message, ErrorValue: null, TraceCorrelationId: correlationId, ErrorCode: code, ErrorTypeName: typeName });
