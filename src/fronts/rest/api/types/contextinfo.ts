// POST /_api/contextinfo: the request digest and what SharePoint says about the site
// (reference §6). Verbose wraps it as `{"d":{"GetContextWebInformation":{…}}}`; JSON light
// writes the properties at the top level after `odata.metadata` (…#SP.ContextWebInformation).

import type { ResourceType } from '../resource.ts';
import { ok } from '../outcome.ts';
import { LIBRARY_VERSION } from '../../../../wire/headers.ts';
import { urlPrefix } from '../../../../domain/names.ts';

export const contextInfoType: ResourceType<{ kind: 'contextInfo' }> = {
  // Anyone who may read the site may ask for a digest (it needs none itself: see app.ts).
  /** A POST that only reads: anyone with access to the site. */
  permissions: { create: 'Open' },
  async create(_r, ctx) {
    if (!ctx.formDigest) throw new Error('contextinfo needs a digest issuer');
    const { value, timeoutSeconds } = ctx.formDigest(ctx.site, ctx.principal);
    const siteUrl = `${ctx.requestUrl.origin}${urlPrefix(ctx.site.url)}`;
    const webUrl = `${ctx.requestUrl.origin}${urlPrefix(ctx.web.serverRelativeUrl)}`;
    return ok({
      kind: 'primitive', methodName: 'GetContextWebInformation', edmType: 'SP.ContextWebInformation',
      value: {
        kind: 'complex', type: 'SP.ContextWebInformation',
        props: [
          ['FormDigestTimeoutSeconds', timeoutSeconds],
          ['FormDigestValue', value],
          ['LibraryVersion', LIBRARY_VERSION],
          ['SiteFullUrl', siteUrl],
          ['SupportedSchemaVersions', { kind: 'collection', elementType: 'Edm.String', items: ['14.0.0.0', '15.0.0.0'] }],
          ['WebFullUrl', webUrl],
        ],
      },
    });
  },
};
