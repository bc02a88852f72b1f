// What a list and a web have that spemu answers from what it knows, without storing anything:
// a list's event receivers (answered in event-receivers.ts), the lookups that
// point at it (`getRelatedFields`), its IRM settings (IRM is off); a web's templates for new
// subwebs (the team sites spemu makes), its custom list templates (none) and `mapToIcon`.

import type { List, Web } from '../../../../domain/model.ts';
import { fileType } from '../../../../domain/documents.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import { listEditLink } from '../entities.ts';
import { ok } from '../outcome.ts';
import type { MethodDef, Resource } from '../resource.ts';
import { argument, entityCollection, integerArgument, singleEntity, stringArgument } from './shared.ts';
import { CATALOGS } from '../../../../domain/templates.ts';
import { argumentLiteral } from '../../../../odata/path.ts';

type ListResource = { kind: 'list'; list: List };
type WebResource = { kind: 'web'; web: Web };

const readOnly = (read: Extract<Resource, { kind: 'readOnly' }>['read']): Resource => ({ kind: 'readOnly', read });

export const listExtraNavigation = {
  /** SharePoint's column-defaults receiver only (event-receivers.ts). */
  eventreceivers: async (r: ListResource): Promise<Resource> => ({ kind: 'eventReceivers', list: r.list }),
  /** IRM is off on every spemu list. */
  informationrightsmanagementsettings: async (r: ListResource): Promise<Resource> => readOnly(async (ctx) => {
    const link = `${listEditLink(r.list)}/InformationRightsManagementSettings`;
    const entity: Entity = {
      type: 'SP.InformationRightsManagementSettings', id: `${ctx.apiUrl}${link}`, editLink: link,
      props: [
        ['AllowPrint', false], ['AllowScript', false], ['AllowWriteCopy', false], ['DisableDocumentBrowserView', false],
        ['DocumentAccessExpireDays', 90], ['DocumentLibraryProtectionExpireDate', null], ['EnableDocumentAccessExpire', false],
        ['EnableDocumentBrowserPublishingView', false], ['EnableGroupProtection', false], ['EnableLicenseCacheExpire', false],
        ['GroupName', null], ['LicenseCacheExpireDays', 30], ['PolicyDescription', null], ['PolicyTitle', null], ['TemplateId', null],
      ],
    };
    return singleEntity(entity, 'SP.InformationRightsManagementSettings', ctx);
  }),
};

export const listExtraMethods: Record<string, MethodDef<ListResource>> = {
  /** The lookup fields of the web's lists that point at this list (SP.RelatedField). */
  getrelatedfields: {
    kind: 'function',
    async invoke(r, _args, ctx) {
      const entities: Entity[] = [];
      for (const other of await ctx.store.lists.inWeb(r.list.webId)) {
        for (const field of await ctx.store.fields.of(other)) {
          if (field.options.lookupListId?.toLowerCase() !== r.list.id) continue;
          const link = `${listEditLink(r.list)}/GetRelatedFields`;
          entities.push({
            type: 'SP.RelatedField', id: `${ctx.apiUrl}${link}(${entities.length})`, editLink: link,
            props: [['FieldId', field.id], ['ListId', other.id], ['RelationshipDeleteBehavior', 0], ['WebId', other.webId]],
          });
        }
      }
      return entityCollection(entities, 'SP.ApiData.RelatedFields', ctx);
    },
  },
};

/** The templates spemu makes subwebs from: team sites. */
function webTemplateEntities(apiUrl: string): Entity[] {
  const templates: Array<[string, string, string]> = [
    ['STS#3', 'Team site (no Microsoft 365 group)', 'A site on which a team can organize, author and share information.'],
    ['STS#0', 'Team site (classic experience)', 'A place to work together with a group of people.'],
  ];
  return templates.map(([name, title, description], i) => ({
    type: 'SP.WebTemplate', id: `${apiUrl}SP.WebTemplate${i}`, editLink: `SP.WebTemplate${i}`,
    props: [['Description', description], ['DisplayCategory', 'Collaboration'], ['Id', 1], ['ImageUrl', '/_layouts/15/images/stts.png'],
      ['IsHidden', false], ['IsRootWebOnly', false], ['IsSubWebOnly', false], ['Lcid', 1033], ['Name', name], ['Title', title]] as Array<[string, Value]>,
  }));
}

/** Icons SharePoint names for file types (its `ic<ext>.png` images); others are the generic one. */
const ICONS = new Set(['docx', 'doc', 'xlsx', 'xls', 'pptx', 'ppt', 'pdf', 'txt', 'png', 'jpg', 'gif', 'zip', 'one', 'vsdx', 'xml', 'html', 'htm', 'aspx', 'csv', 'mpp']);

/** SharePoint's icon image for a file name: `ic` + its extension, or the generic one. */
export function iconFileName(name: string): string {
  const ext = fileType(name).toLowerCase();
  return ICONS.has(ext) ? `ic${ext}.png` : 'icgen.gif';
}

/** SP.ListTemplateType's catalogs SharePoint has and spemu does not (yet): answered 501, not as an unknown type. */
const CATALOGS_NOT_SERVED = new Set([110, 111, 114, 116, 117, 121, 122, 123, 124, 125, 130]);

export const webExtraMethods: Record<string, MethodDef<WebResource>> = {
  /** `getcatalog(113)`: the site collection's catalog of that type, a list of its root web (the same from any web). */
  getcatalog: {
    kind: 'function',
    async invoke(_r, args, ctx) {
      const type = integerArgument(args, 'typeCatalog');
      if (!CATALOGS[type]) {
        if (CATALOGS_NOT_SERVED.has(type)) throw errors.notImplemented(`GetCatalog(${type})`);
        throw errors.badArgument('Specified argument was out of the range of valid values.\r\nParameter name: typeCatalog');
      }
      const list = (await ctx.store.lists.inWeb(ctx.site.rootWebId)).find((l) => l.baseTemplate === type);
      // A workspace seeded before the gallery was made with every site has none.
      if (!list) throw errors.listNotFoundById();
      return { kind: 'list', list };
    },
  },
  getavailablewebtemplates: {
    kind: 'function',
    invoke: async (_r, _args, ctx) => entityCollection(webTemplateEntities(ctx.apiUrl), 'SP.ApiData.WebTemplates', ctx),
  },
  getcustomlisttemplates: { kind: 'function', invoke: async (_r, _args, ctx) => entityCollection([], 'SP.ApiData.ListTemplates', ctx) },
  /** The name of SharePoint's icon image for a file name (`ic` + extension, `lg_ic` for size 1). */
  maptoicon: {
    kind: 'function',
    async invoke(_r, args) {
      const name = stringArgument(args, 'fileName', 'filename');
      const size = argumentLiteral(argument(args, 'size'));
      const large = size?.type === 'number' && size.value === 1;
      const icon = iconFileName(name);
      return ok({ kind: 'primitive', methodName: 'MapToIcon', edmType: 'Edm.String', value: large ? `lg_${icon}` : icon });
    },
  },
};
