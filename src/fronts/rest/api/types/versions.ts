// An item's Versions (SP.ListItemVersion): the current version, which is the item itself,
// then the past versions the store kept (newest first). Each carries VersionId (512 per
// major version), VersionLabel ("2.0"), IsCurrentVersion, Created (when that version was
// made) and the item's field values as they were, people and lookups as
// SP.FieldUserValue / SP.FieldLookupValue.

import { storedValue } from '../../../../domain/items.ts';
import { FIELD_KINDS } from '../../../../domain/field-kinds.ts';
import type { Field, Item, List } from '../../../../domain/model.ts';
import { odataPropertyName } from '../../../../domain/names.ts';
import { storedArray } from '../../../../domain/values.ts';
import { isVersionId, versionIdOf, versionLabelOf } from '../../../../domain/versions.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import type { ApiContext } from '../context.ts';
import { listEditLink } from '../entities.ts';
import { projectedCollection, projectedEntity, type Navigation } from '../expand.ts';
import { wireValue } from '../item-wire.ts';
import { referenceNames, type ReferenceName as Shown } from '../reference-names.ts';
import { userEntity } from '../principal-entities.ts';
import type { ResourceType } from '../resource.ts';
import { emptyOk, integerArgument } from './shared.ts';
import { siteUserById } from './principals.ts';

type VersionsResource = { kind: 'itemVersions'; list: List; id: number };
type VersionResource = { kind: 'itemVersion'; list: List; id: number; versionId: number };

const METADATA = 'SP.ApiData.ListItemVersions';

/** The version's own Created (when it was made) takes the name; the item's Created field is left out. */
const SKIPPED = new Set(['Created']);
/**
 * The version's own properties and navigation properties (lower case): a list field whose OData
 * name is one of them (a custom "VersionLabel" column) is left out rather than written over them.
 */
const OWN = new Set(['created', 'iscurrentversion', 'versionid', 'versionlabel', 'createdby', 'fields', 'fileversion']);

function referenceValue(field: Field, id: number, names: Map<number, Shown> | undefined): Value {
  const shown = names?.get(id);
  const user = FIELD_KINDS[field.kind].reference === 'user';
  const props: Array<[string, Value]> = [['LookupId', id], ['LookupValue', shown?.value ?? '']];
  if (user) props.push(['Email', shown?.email ?? null]);
  return { kind: 'complex', type: user ? 'SP.FieldUserValue' : 'SP.FieldLookupValue', props };
}

function fieldValue(field: Field, item: Item, names: Map<number, Shown> | undefined): Value {
  const info = FIELD_KINDS[field.kind];
  if (field.internalName === '_UIVersionString') return versionLabelOf(item);
  if (field.internalName === 'Attachments') return false;
  const stored = storedValue(field, item);
  if (info.reference) {
    if (info.multi) {
      const type = info.reference === 'user' ? 'SP.FieldUserValue' : 'SP.FieldLookupValue';
      return { kind: 'collection', elementType: type, items: storedArray<number>(stored).map((id) => referenceValue(field, id, names)) };
    }
    return stored === null ? null : referenceValue(field, Number(stored), names);
  }
  if (field.internalName === 'ID' || field.internalName === 'owshiddenversion') return Number(stored);
  return wireValue(field, stored);
}

const versionLink = (list: List, item: Item) => `${listEditLink(list)}/Items(${item.id})/Versions(${versionIdOf(item)})`;

function versionEntity(list: List, fields: Field[], item: Item, current: boolean, names: Map<string, Map<number, Shown>>, ctx: ApiContext): Entity {
  const link = versionLink(list, item);
  const props: Array<[string, Value]> = [
    ['Created', item.modified], ['IsCurrentVersion', current], ['VersionId', versionIdOf(item)], ['VersionLabel', versionLabelOf(item)],
  ];
  for (const field of fields) {
    const name = odataPropertyName(field.internalName);
    if (SKIPPED.has(field.internalName) || OWN.has(name.toLowerCase())) continue;
    props.push([name, fieldValue(field, item, names.get(field.internalName))]);
  }
  return { type: 'SP.ListItemVersion', id: `${ctx.apiUrl}${link}`, editLink: link, deferred: ['CreatedBy', 'Fields', 'FileVersion'], props };
}

/** Who made a version: its editor, as SP.User (null when the row is gone). */
function navigations(list: List, item: Item, ctx: ApiContext): Record<string, Navigation> {
  return {
    CreatedBy: {
      link: `${versionLink(list, item)}/CreatedBy`,
      load: async () => {
        try {
          return userEntity(await siteUserById(ctx, item.editorId), ctx);
        } catch {
          return null;
        }
      },
    },
  };
}

/** The item (404 if gone) and its versions, current first. */
async function loadVersions(list: List, id: number, ctx: ApiContext): Promise<{ fields: Field[]; current: Item; versions: Item[] }> {
  const fields = await ctx.store.fields.of(list);
  const current = await ctx.store.items.get(list, fields, id);
  if (!current) throw errors.itemNotFound();
  const past = (await ctx.store.versions.of(list, id)).filter((v) => versionIdOf(v) < versionIdOf(current));
  return { fields, current, versions: [current, ...past] };
}

async function versionOf(r: VersionsResource, versionIdArg: number): Promise<VersionResource> {
  if (!isVersionId(versionIdArg)) throw errors.versionNotFound();
  return { kind: 'itemVersion', list: r.list, id: r.id, versionId: versionIdArg };
}

export const itemVersionsType: ResourceType<VersionsResource> = {
  key: async (r, args) => versionOf(r, integerArgument(args)),
  methods: {
    getbyid: { kind: 'function', invoke: async (r, args) => versionOf(r, integerArgument(args, 'versionId')) },
  },
  async get(r, ctx) {
    const { fields, current, versions } = await loadVersions(r.list, r.id, ctx);
    const names = await referenceNames(r.list, fields, versions, ctx);
    const entities = versions.map((v) => versionEntity(r.list, fields, v, v === current, names, ctx));
    const byId = new Map(versions.map((v) => [versionIdOf(v), v]));
    return projectedCollection(entities,
      (e) => navigations(r.list, byId.get(Number(e.props.find(([k]) => k === 'VersionId')?.[1]))!, ctx), METADATA, ctx);
  },
};

export const itemVersionType: ResourceType<VersionResource> = {
  permissions: { delete: 'DeleteVersions' },
  navigation: {
    createdby: async (r, ctx) => {
      const { versions } = await loadVersions(r.list, r.id, ctx);
      const version = versions.find((v) => versionIdOf(v) === r.versionId);
      if (!version) throw errors.versionNotFound();
      return { kind: 'siteUser', user: await siteUserById(ctx, version.editorId) };
    },
  },
  async get(r, ctx) {
    const { fields, current, versions } = await loadVersions(r.list, r.id, ctx);
    const version = versions.find((v) => versionIdOf(v) === r.versionId);
    if (!version) throw errors.versionNotFound();
    const names = await referenceNames(r.list, fields, [version], ctx);
    return projectedEntity(versionEntity(r.list, fields, version, version === current, names, ctx), navigations(r.list, version, ctx), METADATA, ctx);
  },
  /** A past version can be deleted (DeleteVersions, which Edit has); the current one only by deleting the item. */
  async delete(r, ctx) {
    await ctx.services.versions.delete(r.list, r.id, r.versionId);
    return emptyOk();
  },
};
