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
    // JSON light's `odata.error`, or verbose's `error` (PnPjs asks for verbose in fields.add*).
    type SpErrorBody = { code: string; message: { value: string } };
    const body = await err.response!.json() as { 'odata.error'?: SpErrorBody; error?: SpErrorBody };
    const error = body['odata.error'] ?? body.error!;
    return { status: err.status!, message: error.message.value, code: error.code };
  }
  assert.fail('the call succeeded but should have failed');
}
