// SiteScriptUtility's site design methods (CreateSiteDesign, GetSiteDesigns,
// GetSiteDesignMetadata, UpdateSiteDesign, DeleteSiteDesign, the rights, ApplySiteDesign,
// AddSiteDesignTask[ToCurrentWeb], GetSiteDesignTask, GetSiteDesignRun, GetSiteDesignRunStatus)
// and ExecuteSiteScriptAction, every one a POST with a JSON body, as PnPjs and CLI for
// Microsoft 365 send them. Answers in SharePoint's shapes: enums as the numbers' strings, Int64
// times as strings (CLI for Microsoft 365's recorded responses). The rules are the service's
// (services/site-designs.ts); applying needs Manage Web Site on the web, checked here.

import type { Web } from '../../../../domain/model.ts';
import { checkSiteScript } from '../../../../domain/site-scripts.ts';
import { canSeeDesign, EMPTY_GUID } from '../../../../services/site-designs.ts';
import type { ActionResult } from '../../../../services/site-script-actions.ts';
import type { SiteDesign, SiteDesignRun } from '../../../../store/site-designs.ts';
import { errors, SpError } from '../../../../wire/errors.ts';
import { fail } from '../../../../domain/errors.ts';
import { fieldDefinition, propsFromSchemaXml } from '../field-bodies.ts';
import type { Value } from '../../../../wire/values.ts';
import { arrayValue, boolProp, intProp, readMethodBody, stringProp, type Properties } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { ok, type Outcome, voidResult } from '../outcome.ts';
import type { MethodDef } from '../resource.ts';
import { requireOnSecurable } from '../authorize-on.ts';
import { scriptId, webOfSite } from './site-utility-args.ts';

const NS = 'Microsoft.SharePoint.Utilities.WebTemplateExtensions';
const METADATA = `${NS}.SiteDesignMetadata`;
const CREATION_INFO = `${NS}.SiteDesignCreationInfo`;
const UPDATE_INFO = `${NS}.SiteDesignUpdateInfo`;
const PRINCIPAL = `${NS}.SiteDesignPrincipal`;
const TASK = `${NS}.SiteDesignTask`;
const RUN = `${NS}.SiteDesignRun`;
const ACTION_STATUS = `${NS}.SiteScriptActionStatus`;
const ACTION_RESULT = `${NS}.SiteScriptActionResult`;

/** The web templates a site design is for: team site (64), communication site (68), team site without a group (1). */
const WEB_TEMPLATES: ReadonlySet<string> = new Set(['64', '68', '1']);
/** Properties the creation info takes that spemu keeps. */
const KEPT = ['Title', 'WebTemplate', 'SiteScriptIds', 'Description', 'PreviewImageUrl', 'PreviewImageAltText', 'IsDefault', 'ThumbnailUrl', 'DesignPackageId', 'Version'];
/** SiteDesignCreationInfo's other properties (PnPjs's ISiteDesignCreationInfo): accepted, not kept, answered as SharePoint's defaults. */
const NOT_KEPT = ['TemplateFeatures', 'SupportedWebTemplates', 'RequiresGroupConnected', 'RequiresTeamsConnected', 'RequiresYammerConnected',
  'RequiresClassConnected', 'RequiresSyntexLicense', 'IsTenantAdminOnly', 'DesignType', 'ListColor', 'ListIcon', 'TargetPlatforms', 'Order'];

const strings = (items: string[], elementType = 'Edm.String'): Value => ({ kind: 'collection', elementType, items });
const collection = (methodName: string, type: string, items: Value[]): Outcome =>
  ok({ kind: 'primitive', methodName, edmType: `Collection(${type})`, value: { kind: 'collection', elementType: type, items } });

/** SiteDesignMetadata, its properties in SharePoint Online's order (CLI for Microsoft 365's `spo sitedesign get`). */
function metadata(d: SiteDesign): Value {
  return {
    kind: 'complex', type: METADATA, props: [
      ['Description', d.description], ['DesignPackageId', d.designPackageId], ['DesignType', '0'], ['ExpandedPreviewImages', strings([])],
      ['InternalName', null], ['IsDefault', d.isDefault], ['IsOutOfBoxTemplate', false], ['IsTenantAdminOnly', false], ['ListColor', '0'],
      ['ListIcon', '0'], ['PreviewImageAltText', d.previewImageAltText], ['PreviewImageUrl', d.previewImageUrl],
      ['RequiresClassConnected', false], ['RequiresGroupConnected', false], ['RequiresSyntexLicense', false], ['RequiresTeamsConnected', false],
      ['RequiresYammerConnected', false], ['SiteScriptIds', strings(d.siteScriptIds, 'Edm.Guid')], ['SupportedWebTemplates', strings([])],
      ['TargetPlatforms', strings([])], ['TemplateAssets', strings([])], ['TemplateFeatures', strings([])], ['ThumbnailUrl', d.thumbnailUrl],
      ['Title', d.title], ['WebTemplate', d.webTemplate], ['Id', d.id], ['Order', null], ['Version', d.version],
    ],
  };
}

const answer = (methodName: string, d: SiteDesign): Outcome => ok({ kind: 'primitive', methodName, edmType: METADATA, value: metadata(d) });

/** The creation or update info object of a body: its properties, each one SharePoint's type has. */
function infoObject(body: Properties, name: string, type: string): Properties {
  const info = body[name];
  if (info === undefined || info === null) throw errors.nullParameter(name, type);
  if (typeof info !== 'object' || Array.isArray(info)) throw errors.notAnObject();
  const { __metadata: _, ...props } = info as Properties;
  for (const key of Object.keys(props)) if (!KEPT.includes(key) && !NOT_KEPT.includes(key) && key !== 'Id') throw errors.unknownBodyProperty(key, type);
  if (type === CREATION_INFO && 'Id' in props) throw errors.unknownBodyProperty('Id', type);
  return props;
}

/** The properties a body sets, each of its type; `creating`: Title and WebTemplate required. */
function designFields(props: Properties, creating: boolean) {
  const title = stringProp(props, 'Title');
  const webTemplate = props.WebTemplate === undefined || props.WebTemplate === null ? undefined : String(props.WebTemplate);
  if (creating && !title?.trim()) throw errors.badArgument('The site design needs a Title.');
  if (webTemplate !== undefined || creating) {
    if (webTemplate === undefined || !WEB_TEMPLATES.has(webTemplate)) throw errors.badArgument(`The web template '${webTemplate ?? ''}' is not one a site design is for (64, 68 or 1).`);
  }
  const ids = props.SiteScriptIds === undefined || props.SiteScriptIds === null ? undefined : arrayValue(props.SiteScriptIds);
  if (props.SiteScriptIds !== undefined && props.SiteScriptIds !== null && !ids) throw errors.invalidPropertyValue('Collection(Edm.Guid)');
  const packageId = props.DesignPackageId === undefined || props.DesignPackageId === null ? undefined : scriptId(props.DesignPackageId, 'DesignPackageId');
  return {
    title, webTemplate, siteScriptIds: ids?.map((id) => scriptId(id, 'SiteScriptIds')),
    description: stringProp(props, 'Description'), previewImageUrl: stringProp(props, 'PreviewImageUrl'),
    previewImageAltText: stringProp(props, 'PreviewImageAltText'), thumbnailUrl: stringProp(props, 'ThumbnailUrl'),
    isDefault: boolProp(props, 'IsDefault'), designPackageId: packageId, version: intProp(props, 'Version'),
  };
}

/** A design the caller may see, by the body's id; else SharePoint's "File Not Found.". */
async function visibleDesign(ctx: ApiContext, id: string): Promise<SiteDesign> {
  const design = await ctx.store.siteDesigns.get(id);
  if (!design || !(await canSeeDesign(ctx.store, ctx.principal, design))) throw errors.siteDesignNotFound();
  return design;
}

/** The principal names of a rights body: an array of strings. */
function principalNames(body: Properties): string[] {
  const names = arrayValue(body.principalNames);
  if (!names || names.some((n) => typeof n !== 'string')) throw errors.nullParameter('principalNames', 'Collection(Edm.String)');
  return names as string[];
}

/** The web a body's `webUrl` names (this site collection's), or the request's web when it names none (PnPjs's web.getSiteDesignRuns). */
async function targetWeb(ctx: ApiContext, webUrl: unknown): Promise<Web> {
  if (webUrl === undefined || webUrl === null) return ctx.web;
  return webOfSite(webUrl, ctx);
}

/** Who applied a design, as SiteDesignRun's InvokedBy shows it: the user's display name. */
async function invokedBy(ctx: ApiContext): Promise<string> {
  if (ctx.principal.upn === null) return ctx.principal.loginName;
  return (await ctx.store.directory.findUser(ctx.principal.upn))?.displayName ?? ctx.principal.upn;
}

/** addSPFieldXml's SchemaXml read as createfieldasxml's is; SharePoint's refusal becomes the action's failure text. */
function fieldFromXml(xml: string, lookupListId?: string) {
  try {
    const props = propsFromSchemaXml(xml);
    if (lookupListId !== undefined) props.LookupList = lookupListId;
    return fieldDefinition(props);
  } catch (e) {
    if (e instanceof SpError) throw fail.badArgument(e.message);
    throw e;
  }
}

/** Runs a design on a web the caller may manage. */
async function apply(ctx: ApiContext, designId: string, web: Web) {
  await requireOnSecurable({ kind: 'web', web }, 'ManageWeb', ctx);
  return ctx.services.siteDesigns.apply(ctx.principal, await invokedBy(ctx), designId, ctx.site, web, fieldFromXml);
}

function actionResult(r: ActionResult): Value {
  return {
    kind: 'complex', type: ACTION_RESULT, props: [
      ['ErrorCode', r.outcome === 0 ? 0 : -1], ['Outcome', String(r.outcome)], ['OutcomeText', r.outcomeText], ['Target', null],
      ['TargetId', null], ['Title', r.title],
    ],
  };
}

/** SiteDesignTask: spemu runs a task when it is added, so the task is the run it became. */
function task(ctx: ApiContext, run: SiteDesignRun): Value {
  return {
    kind: 'complex', type: TASK, props: [
      ['ID', run.id], ['LogonName', ctx.principal.loginName], ['SiteDesignID', run.designId], ['SiteDesignStore', 0],
      ['SiteID', run.siteId], ['WebID', run.webId],
    ],
  };
}

function runValue(run: SiteDesignRun): Value {
  return {
    kind: 'complex', type: RUN, props: [
      ['ActionTrigger', 0], ['ID', run.id], ['InvokedBy', run.invokedBy], ['SiteDesignID', run.designId], ['SiteDesignTitle', run.designTitle],
      ['SiteDesignVersion', run.designVersion], ['SiteID', run.siteId], ['StartTime', run.startTime], ['WebID', run.webId],
    ],
  };
}

function actionStatus(run: SiteDesignRun): Value[] {
  return run.actions.map((a, ordinal) => ({
    kind: 'complex', type: ACTION_STATUS, props: [
      ['ActionIndex', a.actionIndex], ['ActionKey', EMPTY_GUID], ['ActionTitle', a.title], ['LastModified', a.lastModified],
      ['OrdinalIndex', ordinal], ['OutcomeCode', a.outcome], ['OutcomeText', a.outcomeText], ['SiteScriptID', a.siteScriptId],
      ['SiteScriptIndex', a.siteScriptIndex], ['SiteScriptTitle', a.siteScriptTitle],
    ],
  }));
}

type Method = MethodDef<{ kind: 'siteScriptUtility' }>;

export const siteDesignMethods: Record<string, Method> = {
  createsitedesign: {
    kind: 'action', permission: 'Open',
    async invoke(_r, _args, ctx) {
      const f = designFields(infoObject(readMethodBody(ctx), 'info', CREATION_INFO), true);
      const design = await ctx.services.siteDesigns.create(ctx.principal, {
        title: f.title!, webTemplate: f.webTemplate!, siteScriptIds: f.siteScriptIds ?? [], description: f.description ?? null,
        previewImageUrl: f.previewImageUrl ?? null, previewImageAltText: f.previewImageAltText ?? null, thumbnailUrl: f.thumbnailUrl ?? null,
        isDefault: f.isDefault ?? false, designPackageId: f.designPackageId ?? EMPTY_GUID, version: f.version,
      });
      return answer('CreateSiteDesign', design);
    },
  },
  getsitedesigns: {
    kind: 'action', permission: 'Open',
    async invoke(_r, _args, ctx) {
      const items: Value[] = [];
      for (const d of await ctx.store.siteDesigns.all()) if (await canSeeDesign(ctx.store, ctx.principal, d)) items.push(metadata(d));
      return collection('GetSiteDesigns', METADATA, items);
    },
  },
  getsitedesignmetadata: {
    kind: 'action', permission: 'Open',
    invoke: async (_r, _args, ctx) => answer('GetSiteDesignMetadata', await visibleDesign(ctx, scriptId(readMethodBody(ctx).id, 'id'))),
  },
  updatesitedesign: {
    kind: 'action', permission: 'Open',
    async invoke(_r, _args, ctx) {
      const props = infoObject(readMethodBody(ctx), 'updateInfo', UPDATE_INFO);
      const { isDefault, ...f } = designFields(props, false);
      // IsDefault not sent is false again (Microsoft's REST page; PnPjs's updateSiteDesign says so too).
      const design = await ctx.services.siteDesigns.update(ctx.principal, scriptId(props.Id, 'Id'), { ...f, isDefault: isDefault ?? false });
      return answer('UpdateSiteDesign', design);
    },
  },
  deletesitedesign: {
    kind: 'action', permission: 'Open',
    async invoke(_r, _args, ctx) {
      await ctx.services.siteDesigns.delete(ctx.principal, scriptId(readMethodBody(ctx).id, 'id'));
      return voidResult('DeleteSiteDesign');
    },
  },
  getsitedesignrights: {
    kind: 'action', permission: 'Open',
    async invoke(_r, _args, ctx) {
      const design = await visibleDesign(ctx, scriptId(readMethodBody(ctx).id, 'id'));
      const items: Value[] = (await ctx.store.siteDesigns.rights(design.id)).map((p) => ({
        kind: 'complex', type: PRINCIPAL, props: [['DisplayName', p.displayName], ['PrincipalName', p.principalName], ['Rights', String(p.rights)]],
      }));
      return collection('GetSiteDesignRights', PRINCIPAL, items);
    },
  },
  grantsitedesignrights: {
    kind: 'action', permission: 'Open',
    async invoke(_r, _args, ctx) {
      const body = readMethodBody(ctx);
      // View (1) is the one right there is; PnPjs sends it as "1".
      const rights = body.grantedRights === undefined ? 1 : Number(body.grantedRights);
      if (rights !== 1) throw errors.badArgument('Value does not fall within the expected range.');
      await ctx.services.siteDesigns.grant(ctx.principal, scriptId(body.id, 'id'), principalNames(body));
      return voidResult('GrantSiteDesignRights');
    },
  },
  revokesitedesignrights: {
    kind: 'action', permission: 'Open',
    async invoke(_r, _args, ctx) {
      const body = readMethodBody(ctx);
      await ctx.services.siteDesigns.revoke(ctx.principal, scriptId(body.id, 'id'), principalNames(body));
      return voidResult('RevokeSiteDesignRights');
    },
  },
  applysitedesign: {
    kind: 'action', permission: 'Open',
    async invoke(_r, _args, ctx) {
      const body = readMethodBody(ctx);
      const { results } = await apply(ctx, scriptId(body.siteDesignId, 'siteDesignId'), await webOfSite(body.webUrl, ctx));
      return collection('ApplySiteDesign', ACTION_RESULT, results.map(actionResult));
    },
  },
  addsitedesigntask: {
    kind: 'action', permission: 'Open',
    async invoke(_r, _args, ctx) {
      const body = readMethodBody(ctx);
      const { run } = await apply(ctx, scriptId(body.siteDesignId, 'siteDesignId'), await webOfSite(body.webUrl, ctx));
      return ok({ kind: 'primitive', methodName: 'AddSiteDesignTask', edmType: TASK, value: task(ctx, run) });
    },
  },
  addsitedesigntasktocurrentweb: {
    kind: 'action', permission: 'ManageWeb',
    async invoke(_r, _args, ctx) {
      const { run } = await apply(ctx, scriptId(readMethodBody(ctx).siteDesignId, 'siteDesignId'), ctx.web);
      return ok({ kind: 'primitive', methodName: 'AddSiteDesignTaskToCurrentWeb', edmType: TASK, value: task(ctx, run) });
    },
  },
  getsitedesigntask: {
    kind: 'action', permission: 'Open',
    async invoke(_r, _args, ctx) {
      scriptId(readMethodBody(ctx).taskId, 'taskId');
      // A task runs as it is added: none is ever pending, and SharePoint answers null for a task that has run.
      return voidResult('GetSiteDesignTask');
    },
  },
  getsitedesignrun: {
    kind: 'action', permission: 'Open',
    async invoke(_r, _args, ctx) {
      const body = readMethodBody(ctx);
      const web = await targetWeb(ctx, body.webUrl);
      const designId = body.siteDesignId === undefined || body.siteDesignId === null ? undefined : scriptId(body.siteDesignId, 'siteDesignId');
      const runs = await ctx.store.siteDesigns.runs(web.id, designId === EMPTY_GUID ? undefined : designId);
      return collection('GetSiteDesignRun', RUN, runs.map(runValue));
    },
  },
  getsitedesignrunstatus: {
    kind: 'action', permission: 'Open',
    async invoke(_r, _args, ctx) {
      const body = readMethodBody(ctx);
      const web = await targetWeb(ctx, body.webUrl);
      const run = await ctx.store.siteDesigns.run(scriptId(body.runId, 'runId'));
      if (!run || run.webId !== web.id) throw errors.siteDesignNotFound();
      return collection('GetSiteDesignRunStatus', ACTION_STATUS, actionStatus(run));
    },
  },
  executesitescriptaction: {
    kind: 'action', permission: 'ManageWeb',
    async invoke(_r, _args, ctx) {
      const definition = readMethodBody(ctx).actionDefinition;
      if (definition === undefined || definition === null) throw errors.nullParameter('actionDefinition', 'Edm.String');
      if (typeof definition !== 'string') throw errors.invalidPropertyValue('Edm.String');
      let action: unknown;
      try {
        action = JSON.parse(definition);
      } catch (e) {
        throw errors.invalidJson((e as Error).message);
      }
      // One action, its verb (and its subactions') one SharePoint knows: checked as a script of it would be.
      if (action === null || typeof action !== 'object' || Array.isArray(action)) throw errors.siteScriptInvalid();
      checkSiteScript(JSON.stringify({ actions: [action] }));
      await requireOnSecurable({ kind: 'web', web: ctx.web }, 'ManageWeb', ctx);
      const results = await ctx.services.siteDesigns.executeAction(ctx.principal, ctx.site, ctx.web, action as Record<string, unknown>, fieldFromXml);
      return collection('ExecuteSiteScriptAction', ACTION_RESULT, results.map(actionResult));
    },
  },
};
