// An unmodified @pnp/sp 4.x client for a spemu site, set up as a Node application would.

import assert from 'node:assert/strict';
import { spfi, DefaultHeaders, DefaultInit, type SPFI } from '@pnp/sp';
import { BrowserFetch, DefaultParse, InjectHeaders } from '@pnp/queryable';
// @pnp/sp has no exports map: Node ESM needs the explicit index.js of each feature.
import '@pnp/sp/webs/index.js';
import '@pnp/sp/lists/index.js';
import '@pnp/sp/items/index.js';
import '@pnp/sp/fields/index.js';

export function pnpFor(siteUrl: string, headers: Record<string, string> = {}): SPFI {
  return spfi(siteUrl).using(DefaultHeaders(), DefaultInit(), BrowserFetch(), DefaultParse(), InjectHeaders(headers));
}

/** Awaits a PnPjs call that must fail; returns its HTTP status and SharePoint's error code and message. */
export async function failure(call: Promise<unknown>): Promise<{ status: number; message: string; code: string }> {
  try {
    await call;
  } catch (e) {
    const err = e as { status?: number; response?: Response; isHttpRequestError?: boolean };
    assert.equal(err.isHttpRequestError, true, `expected an HttpRequestError, got ${String(e)}`);
    const body = await err.response!.json() as { 'odata.error': { code: string; message: { value: string } } };
    return { status: err.status!, message: body['odata.error'].message.value, code: body['odata.error'].code };
  }
  assert.fail('the call succeeded but should have failed');
}
