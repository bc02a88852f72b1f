// The compiled item writers (fronts/rest/api/item-writer.ts) against the reference tree writers
// (light.ts, verbose.ts) over the entities the same rows make: the same text, byte for byte, in
// every dialect, for single items and pages, under `$select`/`$expand` shapes of every value kind
// (users, lookups, multi-valued ones, numbers, currency, booleans, choices, URLs with a photo
// link, notes, dates), with the entity ids (random per write) the only difference allowed; and
// the shapes left to the entities (names an object would merge, ParentList) written by them.

import { it } from 'node:test';
import assert from 'node:assert/strict';
import { planItemProjection } from '../../src/fronts/rest/api/item-projection.ts';
import { compileItemWriter, itemPayload, itemsPayload } from '../../src/fronts/rest/api/item-writer.ts';
import { listItemEntitySetName } from '../../src/domain/names.ts';
import type { Dialect } from '../../src/wire/dialect.ts';
import { REFERENCE_SERIALIZERS } from '../../src/wire/serializer.ts';
import type { Payload } from '../../src/wire/values.ts';
import { useApiFixture } from '../helpers/api-context.ts';
import { MARK, OLIVIA } from '../helpers/fixtures.ts';
import { minimalTenant } from '../helpers/server.ts';

const use = useApiFixture(minimalTenant({
  lists: [
    { title: 'Refs', url: 'Lists/Refs', fields: [{ name: 'Code', type: 'Text' }], items: [{ Title: 'R1', Code: 'C1' }, { Title: 'R "2"', Code: 'C2' }] },
    {
      title: 'Tasks', url: 'Lists/Tasks',
      fields: [
        { name: 'Owner', type: 'User' }, { name: 'Watchers', type: 'UserMulti' },
        { name: 'Ref', type: 'Lookup', lookupList: 'Refs' }, { name: 'RefMulti', type: 'LookupMulti', lookupList: 'Refs' },
        { name: 'Size', type: 'Number' }, { name: 'Cost', type: 'Currency' }, { name: 'Done', type: 'Boolean' },
        { name: 'Tags', type: 'MultiChoice', choices: ['a', 'b', 'c'] }, { name: 'Link', type: 'URL' }, { name: 'Notes', type: 'Note' },
        { name: 'Due', type: 'DateTime' }, { name: 'My_Field', type: 'Text' },
      ],
      items: [
        {
          Title: 'T1 "quoted" \\ été 😀\u2028', Owner: OLIVIA, Watchers: [OLIVIA, MARK], Ref: 2, RefMulti: [1, 2], Size: 3, Cost: 2.5, Done: true,
          Tags: ['a', 'c'], Link: { Url: '/_layouts/15/userphoto.aspx?size=L&accountname=olivia', Description: 'photo' }, Notes: 'line\nline',
          Due: '2026-01-02T03:04:05Z', My_Field: 'x', author: MARK, editor: OLIVIA,
        },
        { Title: 'T2', Owner: MARK, Ref: 1, Size: 1e21, author: MARK },
        { Title: 'T3' },
      ],
    },
  ],
}));

const DIALECTS = Object.keys(REFERENCE_SERIALIZERS) as Dialect[];
const QUERIES = [
  '',
  '$select=Title',
  '$select=Title,Author/ID,Author/Title,Author/LastName,Editor/ID,Editor/Title,Editor/LastName&$expand=Author,Editor',
  '$expand=Author,Editor',
  '$select=*,Owner/Title,Watchers/Title,Watchers/EMail,Ref/Title,RefMulti/Title,RefMulti/Code&$expand=Owner,Watchers,Ref,RefMulti',
  '$select=Owner/*,Ref&$expand=Owner,Ref',
  '$select=Id,Size,Cost,Done,Tags,Link,Notes,Due,My_Field,OwnerId,OwnerStringId,WatchersId,WatchersStringId,RefMultiId,FileRef,EncodedAbsUrl,FileLeafRef,FSObjType,owshiddenversion,GUID,UniqueId,Attachments,Created,Modified',
  '$select=odata.id,Title&$top=2',
];
/** Entity ids are fresh GUIDs per write: the only part that may differ. */
const ID = /("(?:odata\.id|@odata\.id|id)":)"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g;
const normalized = (text: string) => text.replace(ID, '$1"<id>"');

async function payloads(query: string): Promise<{ payloads: Payload[]; sctx: { apiUrl: string; select?: string | undefined } }> {
  const ctx = await use.api.context(`web/lists/getbytitle('Tasks')/items?${query}`);
  const list = (await ctx.store.lists.byTitle(ctx.web.id, 'Tasks'))!;
  const fields = await ctx.store.fields.of(list);
  const plan = await planItemProjection(list, fields, ctx);
  const items = await ctx.store.items.getMany(list, fields, [1, 2, 3], plan.load);
  const name = listItemEntitySetName(list.entityTypeName);
  const next = `${ctx.apiUrl}web/lists/getbytitle('Tasks')/items?%24skiptoken=Paged%3DTRUE%26p_ID%3D3&$top=3`;
  return {
    payloads: [
      ...await Promise.all(items.map((item) => itemPayload(plan, item, name, ctx))),
      await itemsPayload(plan, items, name, next, ctx), await itemsPayload(plan, items.slice(0, 1), name, undefined, ctx), await itemsPayload(plan, [], name, undefined, ctx),
    ],
    sctx: { apiUrl: ctx.apiUrl, select: ctx.query.selectText },
  };
}

it('every dialect: the compiled text is the reference writers\' text of the same rows, byte for byte', async () => {
  let compared = 0;
  for (const query of QUERIES) {
    const { payloads: all, sctx } = await payloads(query);
    for (const payload of all) {
      assert.notEqual(payload.kind, 'primitive');
      if (payload.kind === 'primitive') continue;
      for (const dialect of DIALECTS) {
        const text: string | undefined = payload.text?.(dialect, sctx);
        assert.ok(text !== undefined, `${query} ${dialect}: compiled`);
        assert.equal(normalized(text), normalized(REFERENCE_SERIALIZERS[dialect].write(payload, sctx)), `${query} ${dialect}`);
        JSON.parse(text);
        compared++;
      }
    }
  }
  assert.equal(compared, QUERIES.length * 6 * DIALECTS.length);
});

it('the photo link in a URL value is written absolute, as the entities have it', async () => {
  const { payloads: [first], sctx } = await payloads('$select=Link');
  const text = first!.kind === 'entity' ? first!.text!('nometadata', sctx)! : '';
  assert.equal(JSON.parse(text).Link.Url, 'http://spemu.test/_layouts/15/userphoto.aspx?size=L&accountname=olivia');
});

it('shapes it does not cover are written from the entities: names an object would merge, ParentList', async () => {
  for (const query of ['$select=Author/Title,Author/Title&$expand=Author', '$select=Title,ParentList/Title&$expand=ParentList']) {
    const ctx = await use.api.context(`web/lists/getbytitle('Tasks')/items?${query}`);
    const list = (await ctx.store.lists.byTitle(ctx.web.id, 'Tasks'))!;
    const plan = await planItemProjection(list, await ctx.store.fields.of(list), ctx);
    for (const dialect of DIALECTS) assert.equal(compileItemWriter(plan, dialect), undefined, `${query} ${dialect}`);
  }
});
