// SiteScriptUtility's static methods, as SharePoint Online serves them at
// `_api/Microsoft.SharePoint.Utilities.WebTemplateExtensions.SiteScriptUtility.<Method>` (or
// with underscores for the dots) below any site: the tenant's site scripts (CreateSiteScript,
// GetSiteScripts, GetSiteScriptMetadata, UpdateSiteScript, DeleteSiteScript) and scripts made
// from a list or a web (GetSiteScriptFromList, GetSiteScriptFromWeb). Every one is a POST.
// Writes need a SharePoint administrator, which the service checks (services/site-scripts.ts).

import { argumentLiteral, type Argument } from '../../../../odata/path.ts';
import { decodeUrlText, segments } from '../../../../domain/documents.ts';
import type { SiteScript } from '../../../../store/site-scripts.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Value } from '../../../../wire/values.ts';
import { intProp, readMethodBody, stringProp, type Properties } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { ok, type Outcome, voidResult } from '../outcome.ts';
import type { ResourceType } from '../resource.ts';
import { listActions, scriptText } from '../site-script-export.ts';
import { argument } from './shared.ts';
import { siteDesignMethods } from './site-designs.ts';
import { pathOf, scriptId, webOfSite } from './site-utility-args.ts';

const NS = 'Microsoft.SharePoint.Utilities.WebTemplateExtensions';
const METADATA = `${NS}.SiteScriptMetadata`;
const UPDATE_INFO = `${NS}.SiteScriptUpdateInfo`;

/** SiteScriptMetadata: the script's JSON only where SharePoint answers it (GetSiteScriptMetadata, UpdateSiteScript). */
function metadata(script: SiteScript, withContent: boolean): Value {
  return {
    kind: 'complex', type: METADATA, props: [
      ['Content', withContent ? script.content : null], ['ContentByteArray', null], ['Description', script.description],
      ['Id', script.id], ['IsSiteScriptPackage', false], ['Title', script.title], ['Version', script.version],
    ],
  };
}

const answer = (methodName: string, script: SiteScript, withContent: boolean): Outcome =>
  ok({ kind: 'primitive', methodName, edmType: METADATA, value: metadata(script, withContent) });

/** A path argument given as a string literal (or an alias of one); undefined when absent or `null`. */
function optionalString(args: Argument[], name: string): string | undefined {
  const literal = argumentLiteral(argument(args, name));
  if (!literal || literal.type === 'null') return undefined;
  if (literal.type !== 'string') throw errors.invalidPropertyValue('Edm.String');
  return literal.value;
}

/** The body's text, as the script's JSON: it must parse, as every JSON body SharePoint reads. */
function scriptBody(ctx: ApiContext): string {
  const text = ctx.rawBody?.toString('utf8').replace(/^\uFEFF/, '') ?? '';
  if (text.trim() === '') throw errors.emptyBody();
  try {
    JSON.parse(text);
  } catch (e) {
    throw errors.invalidJson((e as Error).message);
  }
  return text;
}

/** UpdateSiteScript's `updateInfo`: its known properties only, each of its type. */
function updateInfo(body: Properties): { id: string; title?: string | undefined; description?: string | undefined; content?: string | undefined; version?: number | undefined } {
  const info = body.updateInfo;
  if (info === undefined || info === null) throw errors.nullParameter('updateInfo', UPDATE_INFO);
  if (typeof info !== 'object' || Array.isArray(info)) throw errors.notAnObject();
  const { __metadata: _, ...props } = info as Properties;
  for (const name of Object.keys(props)) {
    if (!['Id', 'Title', 'Description', 'Content', 'Version'].includes(name)) throw errors.unknownBodyProperty(name, UPDATE_INFO);
  }
  return {
    id: scriptId(props.Id, 'Id'), title: stringProp(props, 'Title'), description: stringProp(props, 'Description'),
    content: stringProp(props, 'Content'), version: intProp(props, 'Version'),
  };
}

export const siteScriptUtilityType: ResourceType<{ kind: 'siteScriptUtility' }> = {
  methods: {
    ...siteDesignMethods,
    createsitescript: {
      kind: 'action', permission: 'Open', body: 'raw',
      async invoke(_r, args, ctx) {
        const script = await ctx.services.siteScripts.create(ctx.principal, optionalString(args, 'Title') ?? '', optionalString(args, 'Description') ?? null, scriptBody(ctx));
        return answer('CreateSiteScript', script, false);
      },
    },
    getsitescripts: {
      kind: 'action', permission: 'Open', body: 'none',
      async invoke(_r, _args, ctx) {
        const items = (await ctx.store.siteScripts.all()).map((s) => metadata(s, false));
        return ok({ kind: 'primitive', methodName: 'GetSiteScripts', edmType: `Collection(${METADATA})`, value: { kind: 'collection', elementType: METADATA, items } });
      },
    },
    getsitescriptmetadata: {
      kind: 'action', permission: 'Open',
      async invoke(_r, _args, ctx) {
        const script = await ctx.store.siteScripts.get(scriptId(readMethodBody(ctx).id, 'id'));
        if (!script) throw errors.siteScriptNotFound();
        return answer('GetSiteScriptMetadata', script, true);
      },
    },
    updatesitescript: {
      kind: 'action', permission: 'Open',
      async invoke(_r, _args, ctx) {
        const { id, ...changes } = updateInfo(readMethodBody(ctx));
        return answer('UpdateSiteScript', await ctx.services.siteScripts.update(ctx.principal, id, changes), true);
      },
    },
    deletesitescript: {
      kind: 'action', permission: 'Open',
      async invoke(_r, _args, ctx) {
        await ctx.services.siteScripts.delete(ctx.principal, scriptId(readMethodBody(ctx).id, 'id'));
        return voidResult('DeleteSiteScript');
      },
    },
    getsitescriptfromlist: {
      kind: 'action', permission: 'ViewListItems',
      async invoke(_r, _args, ctx) {
        const listUrl = readMethodBody(ctx).listUrl;
        const web = await webOfSite(listUrl, ctx);
        const list = await ctx.store.lists.byUrl(web.id, `/${segments(pathOf(listUrl as string)).join('/')}`);
        if (!list) throw errors.siteScriptNotFound();
        const text = scriptText(await listActions(ctx.store, web, list, true));
        return ok({ kind: 'primitive', methodName: 'GetSiteScriptFromList', edmType: 'Edm.String', value: text });
      },
    },
    getsitescriptfromweb: {
      kind: 'action', permission: 'ViewListItems',
      async invoke(_r, _args, ctx) {
        const body = readMethodBody(ctx);
        const web = await webOfSite(body.webUrl, ctx);
        const info = (body.info !== null && typeof body.info === 'object' ? body.info : {}) as Properties;
        const included = Array.isArray(info.IncludedLists) ? info.IncludedLists : (info.IncludedLists as { results?: unknown } | undefined)?.results;
        const links = info.IncludeLinksToExportedItems === true;
        const actions: Array<Record<string, unknown>> = [];
        const warnings: string[] = [];
        for (const entry of Array.isArray(included) ? included : []) {
          const relative = String(entry).replace(/^\/+|\/+$/g, '');
          const base = web.serverRelativeUrl === '/' ? '' : web.serverRelativeUrl;
          const list = await ctx.store.lists.byUrl(web.id, `${base}/${decodeUrlText(relative)}`);
          if (list) actions.push(...await listActions(ctx.store, web, list, links));
          else warnings.push(`The list '${relative}' was not found in the web.`);
        }
        return ok({
          kind: 'primitive', methodName: 'GetSiteScriptFromWeb', edmType: `${NS}.SiteScriptSerializationResult`, value: {
            kind: 'complex', type: `${NS}.SiteScriptSerializationResult`,
            props: [['JSON', scriptText(actions)], ['Warnings', { kind: 'collection', elementType: 'Edm.String', items: warnings }]],
          },
        });
      },
    },
  },
};
