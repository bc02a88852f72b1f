// SP.Web's and SP.Site's static methods, called at `_api/` with the class in the path:
// `SP.Web.GetDocumentLibraries(@v)` (a web's libraries, by its absolute URL),
// `SP.Web.GetWebUrlFromPageUrl(@v)` (the web a page is in) and `SP.Site.Exists` (POST
// `{url}`: whether a site collection is at that URL).

import { webAt } from '../../../../services/document-paths.ts';
import { decodeUrlText, segments } from '../../../../domain/documents.ts';
import { DEFAULT_LIBRARY } from '../../../../domain/templates.ts';
import { urlPrefix } from '../../../../domain/names.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity } from '../../../../wire/values.ts';
import { readMethodBody } from '../body.ts';
import { absoluteUrl } from '../entities.ts';
import { ok } from '../outcome.ts';
import type { ResourceType } from '../resource.ts';
import { entityCollection, stringArgument } from './shared.ts';
import { webShareObject } from './sharing.ts';

/** The path of an absolute URL (or a server-relative one), decoded. */
const pathOf = (url: string): string => decodeUrlText(/^https?:\/\//i.test(url) ? new URL(url).pathname : url);

export const webStaticsType: ResourceType<{ kind: 'webStatics' }> = {
  methods: {
    shareobject: webShareObject,
    getdocumentlibraries: {
      kind: 'function',
      async invoke(_r, args, ctx) {
        const found = await webAt(ctx.store, pathOf(stringArgument(args, 'webFullUrl')));
        if (!found || found.site.id !== ctx.site.id) throw errors.siteNotFound(stringArgument(args, 'webFullUrl'));
        const lists = (await ctx.store.lists.inWeb(found.web.id)).filter((l) => l.baseType === 1 && !l.hidden);
        const defaultUrl = `${urlPrefix(found.web.serverRelativeUrl)}/${DEFAULT_LIBRARY.relativeUrl}`.toLowerCase();
        const entities: Entity[] = lists.map((l, i) => ({
          type: 'SP.DocumentLibraryInformation', id: `${ctx.apiUrl}SP.DocumentLibraryInformation${i}`, editLink: `SP.DocumentLibraryInformation${i}`,
          props: [
            ['AbsoluteUrl', absoluteUrl(ctx, l.serverRelativeUrl)], ['FromCrossFarm', false], ['Id', l.id],
            ['IsDefaultDocumentLibrary', l.serverRelativeUrl.toLowerCase() === defaultUrl], ['Modified', l.lastItemModifiedDate],
            ['ModifiedFriendlyDisplay', null], ['ServerRelativeUrl', l.serverRelativeUrl], ['Title', l.title],
          ],
        }));
        return entityCollection(entities, 'SP.DocumentLibraryInformation', ctx);
      },
    },
    getweburlfrompageurl: {
      kind: 'function',
      async invoke(_r, args, ctx) {
        const found = await webAt(ctx.store, pathOf(stringArgument(args, 'pageFullUrl')), { deepest: true });
        if (!found) throw errors.siteNotFound(stringArgument(args, 'pageFullUrl'));
        return ok({ kind: 'primitive', methodName: 'GetWebUrlFromPageUrl', edmType: 'Edm.String', value: absoluteUrl(ctx, found.web.serverRelativeUrl) });
      },
    },
  },
};

export const siteStaticsType: ResourceType<{ kind: 'siteStatics' }> = {
  methods: {
    exists: {
      kind: 'action', permission: 'Open', body: 'json',
      async invoke(_r, _args, ctx) {
        const url = readMethodBody(ctx).url;
        if (typeof url !== 'string') throw errors.badArgument('The body must be {"url":"…"}.');
        const path = `/${segments(pathOf(url)).join('/')}`.toLowerCase();
        const site = await ctx.store.sites.byUrl(path);
        return ok({ kind: 'primitive', methodName: 'Exists', edmType: 'Edm.Boolean', value: site !== undefined });
      },
    },
  },
};
