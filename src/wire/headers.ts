// The headers SharePoint puts on every `/_api` response (reference §12).

import { randomUUID } from 'node:crypto';
import { isV4, type Dialect } from './dialect.ts';

/** The build spemu reports: a SharePoint Online 16.0 build number. */
export const SHAREPOINT_BUILD = '26712';
export const LIBRARY_VERSION = `16.0.${SHAREPOINT_BUILD}.12000`;

export const newRequestId = () => randomUUID();

export function standardHeaders(requestId: string, dialect: Dialect | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'Cache-Control': 'private, max-age=0',
    'X-SharePointHealthScore': '0',
    'SPRequestGuid': requestId,
    'request-id': requestId,
    'MicrosoftSharePointTeamServices': `16.0.0.${SHAREPOINT_BUILD}`,
    'X-Content-Type-Options': 'nosniff',
    'X-MS-InvokeApp': '1; RequireReadOnly',
  };
  if (dialect && isV4(dialect)) headers['OData-Version'] = '4.0';
  else headers['DATASERVICEVERSION'] = '3.0';
  return headers;
}
