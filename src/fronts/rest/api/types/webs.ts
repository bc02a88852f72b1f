// Subwebs: `web/webs` (SP.Web entries, `add`), `web/webinfos` (SP.WebInformation entries,
// `add`), `getSubwebsFilteredForCurrentUser`, a web's `ParentWeb`, and `site/openWebById`.
// A web's own update and delete are on SP.Web (web.ts).

import type { Web } from '../../../../domain/model.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity } from '../../../../wire/values.ts';
import { readParameters, type Properties } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { absoluteUrl, webEntity } from '../entities.ts';
import { withCurrentChangeToken, withCurrentChangeTokens } from './changes.ts';
import { ok } from '../outcome.ts';
import type { MethodDef, ResourceType } from '../resource.ts';
import type { WebInput } from '../../../../services/webs.ts';
import { argument, entityCollection, guidText, singleEntity, stringArgument } from './shared.ts';
import { argumentLiteral, type Argument } from '../../../../odata/path.ts';

type WebsResource = { kind: 'webs' | 'webInfos'; web: Web };

/** SP.WebInformation: what a parent shows of a subweb (`webinfos`, `ParentWeb`). */
export function webInformationEntity(web: Web, ctx: ApiContext): Entity {
  return {
    type: 'SP.WebInformation', id: `${absoluteUrl(ctx, web.serverRelativeUrl)}/_api/web/webinfos(guid'${web.id}')`, editLink: `web/webinfos(guid'${web.id}')`,
    props: [
      ['Configuration', 0], ['Created', web.created], ['Description', web.description], ['Id', web.id], ['Language', web.language],
      ['LastItemModifiedDate', web.lastItemModified], ['LastItemUserModifiedDate', web.lastItemModified],
      ['ServerRelativeUrl', web.serverRelativeUrl], ['Title', web.title], ['WebTemplate', web.webTemplate], ['WebTemplateId', 1],
    ],
  };
}

/** The webs directly below `web`, in URL order. */
export async function childWebs(web: Web, ctx: ApiContext): Promise<Web[]> {
  return (await ctx.store.sites.websOf(web.siteId)).filter((w) => w.parentId === web.id);
}

/** `webs/add` and `webinfos/add` with `{"parameters":{…}}` of type SP.WebCreationInformation. */
function addWeb(answer: 'web' | 'information'): MethodDef<WebsResource> {
  return {
    kind: 'action', permission: 'ManageSubwebs', body: 'json',
    async invoke(r, _args, ctx) {
      const web = await ctx.services.webs.create(r.web, creationInformation(readParameters(ctx, 'SP.WebCreationInformation')));
      if (answer === 'web') return singleEntity(await withCurrentChangeToken(webEntity(web, ctx), ctx, 'web', web.id), 'SP.Web', ctx);
      return ok({ kind: 'entity', metadataName: 'SP.WebInformation', entity: webInformationEntity(web, ctx) });
    },
  };
}

const CREATION_PROPERTIES = ['Url', 'Title', 'Description', 'WebTemplate', 'Language', 'UseSamePermissionsAsParentSite', 'UseUniquePermissions'];

function creationInformation(props: Properties): WebInput {
  const value = (name: string): unknown => {
    const key = Object.keys(props).find((k) => k.toLowerCase() === name.toLowerCase());
    return key === undefined ? undefined : props[key];
  };
  for (const key of Object.keys(props)) {
    if (!CREATION_PROPERTIES.some((p) => p.toLowerCase() === key.toLowerCase())) throw errors.unknownBodyProperty(key, 'SP.WebCreationInformation');
  }
  const text = (name: string, fallback?: string): string => {
    const v = value(name) ?? fallback;
    if (typeof v !== 'string') throw errors.badArgument(`The parameter ${name} of SP.WebCreationInformation must be a string.`);
    return v;
  };
  const flag = (name: string, fallback: boolean): boolean => {
    const v = value(name) ?? fallback;
    if (typeof v !== 'boolean') throw errors.invalidPropertyValue('Edm.Boolean');
    return v;
  };
  const language = value('Language') ?? 1033;
  if (typeof language !== 'number' || !Number.isInteger(language) || language < 0) throw errors.invalidPropertyValue('Edm.Int32');
  const unique = value('UseUniquePermissions');
  return {
    url: text('Url'), title: text('Title'), description: text('Description', ''), webTemplate: text('WebTemplate', 'STS'), language,
    useSamePermissionsAsParentSite: unique === undefined ? flag('UseSamePermissionsAsParentSite', true) : !flag('UseUniquePermissions', false),
  };
}

export const websType: ResourceType<WebsResource> = {
  key: async (r, args, ctx) => {
    const id = guidText(stringArgument(args));
    const web = (await childWebs(r.web, ctx)).find((w) => w.id === id);
    if (!web) throw errors.resourceNotFound();
    return { kind: 'web', web };
  },
  methods: { add: addWeb('web') },
  get: async (r, ctx) => {
    const entities = await withCurrentChangeTokens((await childWebs(r.web, ctx)).map((w) => webEntity(w, ctx)), ctx, 'web');
    return entityCollection(entities, 'SP.ApiData.Webs', ctx);
  },
};

export const webInfosType: ResourceType<WebsResource> = {
  methods: { add: addWeb('information') },
  get: async (r, ctx) => entityCollection((await childWebs(r.web, ctx)).map((w) => webInformationEntity(w, ctx)), 'SP.ApiData.WebInformations', ctx),
};

/** A web's methods about its subwebs. */
export const subwebMethods: Record<string, MethodDef<{ kind: 'web'; web: Web }>> = {
  /** The subwebs the caller may open (all of them: subwebs inherit the site's permissions), of one template or configuration (-1: any). */
  getsubwebsfilteredforcurrentuser: {
    kind: 'function',
    async invoke(r, args, ctx) {
      const template = filterArgument(args, 'nWebTemplateFilter');
      const configuration = filterArgument(args, 'nConfigurationFilter');
      const webs = (await childWebs(r.web, ctx)).filter(() => (template === -1 || template === 1) && (configuration === -1 || configuration === 0));
      return entityCollection(webs.map((w) => webInformationEntity(w, ctx)), 'SP.ApiData.WebInformations', ctx);
    },
  },
};

/** A filter of getSubwebsFilteredForCurrentUser: an Int32, -1 (any) when left out. */
function filterArgument(args: Argument[], name: string): number {
  const value = argument(args, name);
  if (value === undefined) return -1;
  const literal = argumentLiteral(value);
  if (literal?.type === 'number' && Number.isInteger(literal.value)) return literal.value;
  throw errors.invalidPropertyValue('Edm.Int32');
}

/** `site/openWebById('…')` (a POST in PnPjs): the web of this site collection with that id. */
export const openWebById: MethodDef<{ kind: 'site' }> = {
  kind: 'action', permission: 'Open', body: 'none',
  async invoke(_r, args, ctx) {
    const id = guidText(stringArgument(args, 'gWebId'));
    const web = (await ctx.store.sites.websOf(ctx.site.id)).find((w) => w.id === id);
    if (!web) throw errors.resourceNotFound();
    return singleEntity(await withCurrentChangeToken(webEntity(web, ctx), ctx, 'web', web.id), 'SP.Web', ctx);
  },
};
