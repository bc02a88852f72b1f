// The headers SharePoint puts on every `/_api` response (reference §12).

import { randomUUID } from 'node:crypto';
import { isV4, type Dialect } from './dialect.ts';

/** The build spemu reports: a SharePoint Online 16.0 build number. */
export const SHAREPOINT_BUILD = '26712';
export const LIBRARY_VERSION = `16.0.${SHAREPOINT_BUILD}.12000`;

export const newRequestId = () => randomUUID();

/** The headers as a template per OData version, the request id's two left blank: copied per response, not built. */
const template = (v4: boolean): Readonly<Record<string, string>> => Object.freeze({
  'Cache-Control': 'private, max-age=0',
  'X-SharePointHealthScore': '0',
  'SPRequestGuid': '',
  'request-id': '',
  'MicrosoftSharePointTeamServices': `16.0.0.${SHAREPOINT_BUILD}`,
  'X-Content-Type-Options': 'nosniff',
  'X-MS-InvokeApp': '1; RequireReadOnly',
  ...(v4 ? { 'OData-Version': '4.0' } : { DATASERVICEVERSION: '3.0' }),
});
const V3_HEADERS = template(false);
const V4_HEADERS = template(true);

/** A fresh object each time: callers add their own headers to it. */
export function standardHeaders(requestId: string, dialect: Dialect | undefined): Record<string, string> {
  const headers = { ...(dialect && isV4(dialect) ? V4_HEADERS : V3_HEADERS) };
  headers.SPRequestGuid = requestId;
  headers['request-id'] = requestId;
  return headers;
}
