// Front: SharePoint's short sharing links, `/:f:/s/{site}/{token}` (`:w:`, `:x:`, `:t:`, … by
// what is shared), as shareLink gives them. Following one answers 302 to the object's own URL,
// once the caller is signed in to its site; the link itself grants nothing (see
// docs/compatibility.md, Sharing).

import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { placePath } from '../../domain/documents.ts';
import { fail } from '../../domain/errors.ts';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { sendResponse } from '../../pipeline/send.ts';
import type { ApiResponse } from '../../pipeline/request.ts';
import type { SitePathRouter } from '../../pipeline/site-paths.ts';
import { errorDialect } from '../../wire/dialect.ts';
import { errorResponse } from '../../wire/error-response.ts';
import { newRequestId } from '../../wire/headers.ts';

/** `/:f:/s/dev/<token>`, `/:w:/t/team/<token>`, `/:u:/g/<token>` (the root site), `/:x:/r/<site path>/<token>`. */
const LINK = /^\/:([a-z]{1,2}):\/(s|t|g|r)((?:\/[^/]+)*)\/([A-Za-z0-9_-]{8,64})\/?$/i;

export const linksFront: FastifyPluginAsync<{ deps: FrontDeps; sitePaths: SitePathRouter }> = async (_app, { deps, sitePaths }) => {
  sitePaths.add({
    name: 'links',
    claims: (pathname, method) => (method === 'GET' || method === 'HEAD') && LINK.test(pathname),
    handle: (req, reply) => follow(req, reply, deps),
  });
};

/** The site path a link's middle part names. */
function sitePathOf(where: string, rest: string): string {
  const lower = where.toLowerCase();
  if (lower === 'g') return '/';
  if (lower === 's') return `/sites${rest}`;
  if (lower === 't') return `/teams${rest}`;
  return rest || '/';
}

async function follow(req: FastifyRequest, reply: FastifyReply, deps: FrontDeps): Promise<void> {
  const started = process.hrtime.bigint();
  const requestId = newRequestId();
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value[0] : value;
  let response: ApiResponse;
  try {
    const m = LINK.exec(req.url.split('?', 1)[0]!)!;
    const notFound = () => fail.fileNotFound(decodeURIComponent(req.url.split('?', 1)[0]!));
    const identity = await deps.authenticator.identify({ authorization: headers.authorization, cookie: headers.cookie, origin: req.publicOrigin });
    const link = await deps.store.sharingLinks.byToken(m[4]!);
    const site = link ? (await deps.store.sites.all()).find((s) => s.id === link.siteId) : undefined;
    if (!link || !site || site.url.toLowerCase() !== sitePathOf(m[2]!, decodeURIComponent(m[3] ?? '')).toLowerCase()) throw notFound();
    await deps.authenticator.authorize(site, identity);
    if (link.expiration !== null && link.expiration <= new Date().toISOString()) throw notFound();
    const [, rowId, itemId] = /^item:(\d+):(\d+)$/.exec(link.scope) ?? [];
    const list = rowId ? await deps.store.lists.byRowId(Number(rowId)) : undefined;
    const item = list ? await deps.store.items.get(list, await deps.store.fields.of(list), Number(itemId)) : undefined;
    if (!list || !item) throw notFound();
    // A file or folder at its own URL, an ordinary item at its list's display form.
    const document = item.file !== undefined || item.place.folder;
    const path = document ? `${list.serverRelativeUrl}/${placePath(item.place)}` : `${list.serverRelativeUrl}/DispForm.aspx`;
    const location = `${req.publicOrigin}${path.split('/').map(encodeURIComponent).join('/')}${document ? '' : `?ID=${item.id}`}`;
    response = { status: 302, headers: { Location: location, 'Content-Length': '0', SPRequestGuid: requestId }, body: undefined, requestId };
  } catch (e) {
    response = errorResponse(e, requestId, errorDialect(headers.accept, headers['odata-version']), req.log, req.url);
  }
  sendResponse(req, reply, response, started);
}
