// What SiteScriptUtility's methods read from their bodies alike (site scripts and site designs):
// a GUID as an Edm.Guid parameter, and a web of the request's site collection by its URL.

import { decodeUrlText } from '../../../../domain/documents.ts';
import { webAt } from '../../../../services/document-paths.ts';
import { errors } from '../../../../wire/errors.ts';
import type { ApiContext } from '../context.ts';

const GUID = /^\{?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\}?$/i;

/**
 * A script id (Edm.Guid) from a body: `null` is refused as ODataLib refuses it; an id that is
 * not a GUID cannot be converted; an absent one is the empty GUID, which names no script.
 */
export function scriptId(value: unknown, name: string): string {
  if (value === undefined) return '00000000-0000-0000-0000-000000000000';
  if (value === null) throw errors.nullParameter(name, 'Edm.Guid');
  const match = typeof value === 'string' ? GUID.exec(value.trim()) : null;
  if (!match) throw errors.invalidPropertyValue('Edm.Guid');
  return match[1]!.toLowerCase();
}

/** The path of an absolute URL (or a server-relative one), decoded. */
export const pathOf = (url: string): string => decodeUrlText(/^https?:\/\//i.test(url) ? new URL(url).pathname : url);

/** A web of this site collection by its URL, else SharePoint's "File Not Found." */
export async function webOfSite(url: unknown, ctx: ApiContext) {
  if (typeof url !== 'string' || url.trim() === '') throw errors.siteScriptNotFound();
  const found = await webAt(ctx.store, pathOf(url), { deepest: true });
  if (!found || found.site.id !== ctx.site.id) throw errors.siteScriptNotFound();
  return found.web;
}

