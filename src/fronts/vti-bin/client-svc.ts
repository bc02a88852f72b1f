// `POST {site}/_vti_bin/client.svc/ProcessQuery`: the client-side object model (CSOM), which
// spemu does not speak. An authenticated caller gets CSOM's own error answer (HTTP 200 with an
// ErrorInfo, as SharePoint reports a failed query) naming what is missing, so a client such as
// CLI for Microsoft 365 (`spo propertybag list`, `spo contenttype add`) says "not implemented
// by spemu" instead of a bare 404; without credentials, SharePoint's 401 challenge as anywhere.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { describeRequest, type ApiResponse } from '../../pipeline/request.ts';
import { sendResponse } from '../../pipeline/send.ts';
import { errorDialect } from '../../wire/dialect.ts';
import { errorResponse } from '../../wire/error-response.ts';
import { LIBRARY_VERSION, newRequestId, standardHeaders } from '../../wire/headers.ts';

export const PROCESS_QUERY_PATH = /\/_vti_bin\/client\.svc\/ProcessQuery$/i;

/** E_NOTIMPL, the HRESULT of System.NotImplementedException. */
const E_NOTIMPL = -2147467263;

export async function serveProcessQuery(req: FastifyRequest, reply: FastifyReply, deps: FrontDeps): Promise<void> {
  const started = process.hrtime.bigint();
  const request = describeRequest(req, deps.bodyLimit);
  const requestId = newRequestId();
  let response: ApiResponse;
  try {
    await deps.authenticator.identify({ authorization: request.headers.authorization, cookie: request.headers.cookie, origin: request.origin });
    const body = JSON.stringify([{
      SchemaVersion: '15.0.0.0', LibraryVersion: LIBRARY_VERSION,
      ErrorInfo: {
        ErrorMessage: 'The client-side object model (client.svc/ProcessQuery) is not implemented by spemu: use the REST API (/_api).',
        ErrorValue: null, TraceCorrelationId: requestId, ErrorCode: E_NOTIMPL, ErrorTypeName: 'System.NotImplementedException',
      },
      TraceCorrelationId: requestId,
    }]);
    response = { status: 200, headers: { ...standardHeaders(requestId, undefined), 'Content-Type': 'application/json; charset=utf-8' }, body, requestId };
  } catch (e) {
    response = errorResponse(e, requestId, errorDialect(request.headers.accept, request.headers['odata-version']), req.log, request.url);
  }
  sendResponse(req, reply, response, started);
}
