// List item attachments (issue #11): `items(n)/AttachmentFiles`, one by name, added with the
// request's bytes as a stream (`add(FileName='…')`, `addUsingPath(DecodedUrl='…')`), read and
// replaced through `$value`, deleted or recycled. Their URL is SharePoint's:
// `{list}/Attachments/{item id}/{name}`.

import type { List } from '../../../../domain/model.ts';
import type { Attachment } from '../../../../store/attachments.ts';
import { attachmentEtag } from '../../../../domain/documents.ts';
import { fail } from '../../../../domain/errors.ts';
import type { Entity } from '../../../../wire/values.ts';
import type { ApiContext } from '../context.ts';
import { listEditLink, resourcePathValue } from '../entities.ts';
import { noContent, type Outcome } from '../outcome.ts';
import type { ResourceType } from '../resource.ts';
import { bodyOf, urlArgument, voidAction } from './documents-shared.ts';
import { emptyOk, entityCollection, singleEntity, stringArgument } from './shared.ts';

type AttachmentsResource = { kind: 'attachments'; list: List; id: number };
type AttachmentResource = { kind: 'attachment'; list: List; id: number; name: string };

const attachmentUrl = (list: List, id: number, name: string) => `${list.serverRelativeUrl}/Attachments/${id}/${name}`;

export function attachmentEntity(list: List, id: number, a: Attachment, ctx: ApiContext): Entity {
  const link = `${listEditLink(list)}/Items(${id})/AttachmentFiles('${a.name.replace(/'/g, "''")}')`;
  const url = attachmentUrl(list, id, a.name);
  return {
    type: 'SP.Attachment', id: `${ctx.apiUrl}${link}`, editLink: link,
    props: [['FileName', a.name], ['FileNameAsPath', resourcePathValue(a.name)], ['ServerRelativePath', resourcePathValue(url)], ['ServerRelativeUrl', url]],
  };
}

async function requireAttachment(r: AttachmentResource, ctx: ApiContext): Promise<Attachment> {
  const found = await ctx.store.attachments.get(r.list, r.id, r.name);
  if (!found) throw fail.fileNotFoundById();
  return found;
}

async function add(r: AttachmentsResource, name: string, ctx: ApiContext): Promise<Outcome> {
  const added = await ctx.services.attachments.put(r.list, r.id, name, bodyOf(ctx), { replace: false });
  return singleEntity(attachmentEntity(r.list, r.id, added, ctx), 'SP.Attachment', ctx);
}

export const attachmentsType: ResourceType<AttachmentsResource> = {
  async key(r, args) {
    return { kind: 'attachment', list: r.list, id: r.id, name: stringArgument(args, 'filename', 'name') };
  },
  async get(r, ctx) {
    if (!(await ctx.store.items.get(r.list, await ctx.store.fields.of(r.list), r.id))) throw fail.itemNotFound();
    const all = await ctx.store.attachments.of(r.list, r.id);
    return entityCollection(all.map((a) => attachmentEntity(r.list, r.id, a, ctx)), 'SP.ApiData.Attachments', ctx);
  },
  methods: {
    // SP.AttachmentCollection's own ways to name one (the key `('name')` is the other).
    getbyfilename: { kind: 'function', invoke: async (r, args) => ({ kind: 'attachment', list: r.list, id: r.id, name: stringArgument(args, 'filename') }) },
    getbyfilenameaspath: { kind: 'function', invoke: async (r, args) => ({ kind: 'attachment', list: r.list, id: r.id, name: urlArgument(args, true) }) },
    add: { kind: 'action', permission: 'EditListItems', body: 'stream', invoke: (r, args, ctx) => add(r, stringArgument(args, 'filename'), ctx) },
    addusingpath: { kind: 'action', permission: 'EditListItems', body: 'stream', invoke: (r, args, ctx) => add(r, urlArgument(args, true), ctx) },
  },
};

export const attachmentType: ResourceType<AttachmentResource> = {
  permissions: { delete: 'EditListItems' },
  navigation: {
    $value: async (r) => ({ kind: 'attachmentContent', list: r.list, id: r.id, name: r.name }),
  },
  methods: {
    /**
     * spemu's recycle bin keeps items, not attachments: recycling one removes it as a delete
     * does (docs/compatibility.md), and answers as SharePoint's void action.
     */
    recycleobject: voidAction('RecycleObject', 'EditListItems', async (r, _args, ctx) => ctx.services.attachments.delete(r.list, r.id, r.name)),
  },
  get: async (r, ctx) => singleEntity(attachmentEntity(r.list, r.id, await requireAttachment(r, ctx), ctx), 'SP.Attachment', ctx),
  async delete(r, ctx) {
    await ctx.services.attachments.delete(r.list, r.id, r.name);
    return emptyOk();
  },
};

export const attachmentContentType: ResourceType<{ kind: 'attachmentContent'; list: List; id: number; name: string }> = {
  permissions: { update: 'EditListItems' },
  bodies: { update: 'stream' },
  async get(r, ctx) {
    const found = await requireAttachment({ ...r, kind: 'attachment' }, ctx);
    const stream = await ctx.store.blobs.open(found.blobId);
    if (!stream) throw fail.fileNotFoundById();
    return { kind: 'bytes', status: 200, body: stream, contentType: 'application/octet-stream', length: found.size, etag: attachmentEtag(found) };
  },
  async update(r, ctx) {
    await ctx.services.attachments.put(r.list, r.id, r.name, bodyOf(ctx), { replace: true, conditions: ctx.conditions });
    return noContent();
  },
};
