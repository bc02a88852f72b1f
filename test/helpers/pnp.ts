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

/** Basic credentials of a demo tenant user: each one's password is `<name>-demo-pass` (demo/tenant.json). */
export const demoBasic = (upn: string): string => `Basic ${Buffer.from(`${upn}:${upn.split('@')[0]}-demo-pass`).toString('base64')}`;

/** A request digest for a demo user at `siteUrl` (`POST _api/contextinfo`); undefined when the user may not have one. */
export async function demoDigest(siteUrl: string, upn: string): Promise<string | undefined> {
  const r = await fetch(`${siteUrl}/_api/contextinfo`, { method: 'POST', headers: { Authorization: demoBasic(upn), Accept: 'application/json;odata=nometadata' } });
  return r.ok ? ((await r.json()) as { FormDigestValue: string }).FormDigestValue : undefined;
}

/** PnPjs signed in as a demo user, with a request digest for writes when the user may have one. */
export async function pnpAsDemoUser(siteUrl: string, upn: string): Promise<SPFI> {
  const digest = await demoDigest(siteUrl, upn);
  return pnpFor(siteUrl, { Authorization: demoBasic(upn), ...(digest ? { 'X-RequestDigest': digest } : {}) });
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
