// The direct JSON writers (wire/direct-json.ts) against the tree writers they replace on the
// hot path (light.ts, verbose.ts): the same text, byte for byte, in every dialect, for the
// payloads spemu answers with and for generated ones; and the cases an object would reorder
// or merge (repeated, integer-like or annotation-like names) left to the tree writer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REFERENCE_SERIALIZERS, serializerFor } from '../../src/wire/serializer.ts';
import { lightDirect, verboseDirect, type DirectWriter } from '../../src/wire/direct-json.ts';
import { jsonString } from '../../src/wire/json-writer.ts';
import type { Dialect } from '../../src/wire/dialect.ts';
import { EdmDouble, type Entity, type Payload, type Value } from '../../src/wire/values.ts';

const DIALECTS = Object.keys(REFERENCE_SERIALIZERS) as Dialect[];
const DIRECT: Record<Dialect, DirectWriter> = {
  verbose: verboseDirect(), minimal: lightDirect('v3', 'minimal'), nometadata: lightDirect('v3', 'none'),
  'v4-minimal': lightDirect('v4', 'minimal'), 'v4-none': lightDirect('v4', 'none'), 'v4-full': lightDirect('v4', 'full'),
};
const CTX = { apiUrl: 'http://127.0.0.1:8080/sites/dev/_api/' };
const CTX_SELECT = { ...CTX, select: 'Title,Author/ID,Author/Title&x' };

const ITEM_NAVIGATION = ['FirstUniqueAncestorSecurableObject', 'RoleAssignments', 'AttachmentFiles', 'ContentType', 'ParentList', 'Versions'];
const link = "Web/Lists(guid'a6b04e9c-0d0d-4afd-83d4-cff11c92f9f0')/Items(1)";
const user = (id: number, title: string): Entity => ({ type: 'SP.Data.UserInfoItem', id: `3d422d17-aa42-465d-ab24-31c9c3f1e74${id}`, minimalMetadata: true, props: [['ID', id], ['Title', title], ['LastName', title.split(' ')[1] ?? null]] });

/** Endpoint 1's item: Author and Editor expanded, with $select. */
const endpointItem: Entity = {
  type: 'SP.Data.TasksListItem', id: '2ebc3abc-31e4-4948-a817-4f523f3d7aff', editLink: link, etag: '"1"',
  props: [
    ['Author', { kind: 'expanded', navigationLink: `${link}/Author`, value: user(1, 'Alice Adams') }],
    ['Editor', { kind: 'expanded', navigationLink: `${link}/Editor`, value: user(2, 'Bob "B" Baker\u2028\u0000') }],
    ['Title', 'Write spec'],
  ],
};

/** A full item (no $select): deferred navigation, every kind of value. */
const fullItem: Entity = {
  type: 'SP.Data.TasksListItem', id: 'f884bcd2-4048-4379-86b8-4a8334b9aa28', editLink: link, etag: '"3"', deferred: ITEM_NAVIGATION,
  props: [
    ['FileSystemObjectType', 0], ['Id', 1], ['ServerRedirectedEmbedUri', null], ['ContentTypeId', '0x0100ABC'], ['Title', 'été ✓ 😀'],
    ['Score', new EdmDouble(11)], ['Ratio', new EdmDouble(0.25)], ['Big', new EdmDouble(1e21)], ['NotANumber', new EdmDouble(NaN)], ['Infinite', Infinity],
    ['Done', false], ['Checked', true], ['Negative', -0],
    ['Tags', { kind: 'collection', elementType: 'Edm.String', items: ['a', 'b"c'] }],
    ['Untyped', { kind: 'collection', elementType: 'Edm.String', untyped: true, items: ['x'] }],
    ['Ids', { kind: 'collection', elementType: 'Edm.Int32', items: [1, 2, 3] }],
    ['Empty', { kind: 'collection', elementType: 'Edm.Int32', items: [] }],
    ['Link', { kind: 'complex', type: 'SP.FieldUrlValue', props: [['Description', 'spemu'], ['Url', 'https://example.com/?a=1&b=<2>']] }],
    ['NoProps', { kind: 'complex', type: 'SP.Empty', props: [] }],
    ['Lookups', { kind: 'expanded', navigationLink: `${link}/Lookups`, value: [user(1, 'Alice Adams'), user(2, 'Bob Baker')] }],
    ['NoLookups', { kind: 'expanded', navigationLink: `${link}/NoLookups`, value: [] }],
    ['Nobody', { kind: 'expanded', navigationLink: `${link}/Nobody`, value: null }],
    ['Odd', undefined as unknown as Value],
    ['Raw', [1, 2] as unknown as Value],
  ],
};

const web: Entity = { type: 'SP.Web', id: 'http://127.0.0.1:8080/sites/dev/_api/Web', editLink: 'Web', props: [['Title', 'Dev']] };
const noLink: Entity = { type: 'SP.Folder', props: [['Name', 'x']] };
const bare: Entity = { type: 'SP.Thing', props: [] };

const PAYLOADS: Array<[string, Payload]> = [
  ['endpoint 1', { kind: 'entity', metadataName: 'SP.ListData.TasksListItems', entity: endpointItem }],
  ['a full item', { kind: 'entity', metadataName: 'SP.ListData.TasksListItems', entity: fullItem }],
  ['a web', { kind: 'entity', metadataName: 'SP.ApiData.Webs', entity: web }],
  ['an entity without an edit link', { kind: 'entity', metadataName: 'SP.Folders', entity: noLink }],
  ['an entity with nothing', { kind: 'entity', metadataName: 'SP.Things', entity: bare }],
  ['a page with a next link', { kind: 'entitySet', metadataName: 'SP.ListData.TasksListItems', entities: [endpointItem, fullItem, endpointItem], nextLink: 'http://x/_api/items?$skiptoken=Paged%3dTRUE%26p_ID%3d3' }],
  ['an empty set', { kind: 'entitySet', metadataName: 'SP.ApiData.Lists', entities: [] }],
  ['a null result', { kind: 'primitive', methodName: 'Recycle', edmType: 'Edm.Null', value: null }],
  ['a string result', { kind: 'primitive', methodName: 'GetWopiFrameUrl', edmType: 'Edm.String', value: '' }],
  ['a double result', { kind: 'primitive', methodName: 'Sum', edmType: 'Edm.Double', value: new EdmDouble(3) }],
  ['a collection result', { kind: 'primitive', methodName: 'Versions', edmType: 'Collection(Edm.String)', value: { kind: 'collection', elementType: 'Edm.String', items: ['14.0.0.0', '15.0.0.0'] } }],
  ['a complex result', { kind: 'primitive', methodName: 'GetContextWebInformation', edmType: 'SP.ContextWebInformation', value: { kind: 'complex', type: 'SP.ContextWebInformation', props: [['FormDigestTimeoutSeconds', 1800], ['FormDigestValue', '0x1,now'], ['value', 'v']] } }],
  ['an empty complex result', { kind: 'primitive', methodName: 'Nothing', edmType: 'SP.Nothing', value: { kind: 'complex', type: 'SP.Nothing', props: [] } }],
];

test('every dialect writes the payloads spemu answers with byte for byte as the tree writer, and without it', () => {
  for (const dialect of DIALECTS) {
    for (const [name, payload] of PAYLOADS) {
      for (const ctx of [CTX, CTX_SELECT]) {
        const reference = REFERENCE_SERIALIZERS[dialect].write(payload, ctx);
        const direct = DIRECT[dialect](payload, ctx);
        assert.equal(direct, reference, `${dialect}: ${name}`);
        assert.equal(serializerFor(dialect).write(payload, ctx), reference);
        JSON.parse(direct!);
      }
    }
  }
});

test('names an object would reorder or merge are left to the tree writer, which answers the same', () => {
  const awkward: Array<[string, Entity]> = [
    ['a repeated name', { ...web, props: [['Title', 'a'], ['Id', 1], ['Title', 'b']] }],
    ['an integer-like name', { ...web, props: [['Title', 'a'], ['7', 1], ['0', 2]] }],
    ['an annotation-like name', { ...web, props: [['odata.type', 'x'], ['Title@odata.navigationLinkUrl', 'y'], ['__metadata', 'z']] }],
    ['an expanded name that is also deferred', { ...fullItem, props: [['ParentList', { kind: 'expanded', navigationLink: `${link}/ParentList`, value: web }]] }],
    ['a repeated name in a complex value', { ...web, props: [['Link', { kind: 'complex', type: 'SP.KeyValue', props: [['Key', 'a'], ['Key', 'b']] }]] }],
  ];
  for (const dialect of DIALECTS) {
    for (const [name, entity] of awkward) {
      const payload: Payload = { kind: 'entity', metadataName: 'SP.Things', entity };
      const reference = REFERENCE_SERIALIZERS[dialect].write(payload, CTX);
      assert.equal(serializerFor(dialect).write(payload, CTX), reference, `${dialect}: ${name}`);
    }
  }
  // The fast path is not taken for them (in at least the dialects where the names meet).
  assert.equal(DIRECT.minimal({ kind: 'entity', metadataName: 'x', entity: awkward[0]![1] }, CTX), undefined);
  assert.equal(DIRECT.verbose({ kind: 'entity', metadataName: 'x', entity: awkward[3]![1] }, CTX), undefined);
  // …and an ordinary entity after them takes it again (the check's memory is not stuck).
  assert.notEqual(DIRECT.minimal({ kind: 'entity', metadataName: 'x', entity: web }, CTX), undefined);
});

/** A small deterministic generator (xorshift), so a failure repeats. */
function generator(seed: number) {
  let s = seed;
  const next = () => { s ^= s << 13; s ^= s >>> 17; s ^= s << 5; return (s >>> 0) / 4294967296; };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const NAMES = ['Title', 'ID', 'Author', 'Editor', 'Modified', 'Body', 'Status', 'Tags', 'Url', 'Value', 'value', 'Key'];
  const STRINGS = ['', 'plain', 'quote " and \\ backslash', 'line\nbreak\ttab', '\u0000\u001f\u2028\u2029', 'ünïcødé 😀', '</script>'];
  const names = (n: number) => { const out: string[] = []; while (out.length < n) { const c = pick(NAMES); if (!out.includes(c)) out.push(c); } return out; };
  function value(depth: number): Value {
    const r = next();
    if (r < 0.12) return null;
    if (r < 0.3) return pick(STRINGS);
    if (r < 0.4) return Math.floor(next() * 1e6) - 5e5;
    if (r < 0.47) return pick([0.5, -1.25, 1e-7, 2 ** 53, NaN]);
    if (r < 0.52) return next() < 0.5;
    if (r < 0.58) return new EdmDouble(pick([0, 1, 11, 0.1, -3.5, 1e21, 1e300, Infinity]));
    if (depth > 2 || r < 0.66) return pick(STRINGS);
    if (r < 0.75) return { kind: 'collection', elementType: pick(['Edm.String', 'Edm.Int32']), untyped: next() < 0.2 ? true : undefined, items: Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1)) };
    if (r < 0.85) return { kind: 'complex', type: pick(['SP.FieldUrlValue', 'SP.KeyValue']), props: names(Math.floor(next() * 4)).map((n) => [n, value(depth + 1)]) };
    const v = next();
    return { kind: 'expanded', navigationLink: `${link}/Nav`, value: v < 0.2 ? null : v < 0.5 ? Array.from({ length: Math.floor(next() * 3) }, () => entity(depth + 1)) : entity(depth + 1) };
  }
  function entity(depth: number): Entity {
    const e: Entity = { type: pick(['SP.Data.TasksListItem', 'SP.Web', 'SP.List']), props: names(Math.floor(next() * 7)).map((n) => [n, value(depth)]) };
    if (next() < 0.8) e.id = pick(['guid-1', 'http://x/_api/Web']);
    if (next() < 0.7) e.editLink = pick([link, 'Web', "Web/Lists(guid'x')"]);
    if (next() < 0.6) e.etag = '"2"';
    if (next() < 0.3) e.minimalMetadata = true;
    if (next() < 0.4) e.deferred = ['Versions', 'Folder', 'File'];
    return e;
  }
  function payload(): Payload {
    const r = next();
    if (r < 0.4) return { kind: 'entity', metadataName: 'SP.Things', entity: entity(0) };
    if (r < 0.8) return { kind: 'entitySet', metadataName: 'SP.Things', entities: Array.from({ length: Math.floor(next() * 4) }, () => entity(0)), nextLink: next() < 0.3 ? 'http://x/next' : undefined };
    return { kind: 'primitive', methodName: pick(['Run', 'GetThing']), edmType: 'Edm.Thing', value: value(0) };
  }
  return { payload };
}

test('generated payloads: the same text in every dialect, most of them written directly', () => {
  const { payload } = generator(20261127);
  let direct = 0;
  const total = 2_000;
  for (let i = 0; i < total; i++) {
    const p = payload();
    for (const dialect of DIALECTS) {
      const reference = REFERENCE_SERIALIZERS[dialect].write(p, CTX_SELECT);
      const written = DIRECT[dialect](p, CTX_SELECT);
      if (written !== undefined) { direct++; assert.equal(written, reference, `payload ${i}, ${dialect}: ${JSON.stringify(p)}`); }
      assert.equal(serializerFor(dialect).write(p, CTX_SELECT), reference);
    }
  }
  assert.ok(direct > total * DIALECTS.length * 0.9, `${direct} of ${total * DIALECTS.length} written directly`);
});

test('jsonString quotes a string exactly as JSON.stringify does: escapes, control characters, lone and paired surrogates', () => {
  const samples = ['', 'abc', 'a"b', 'a\\b', '\u0000', '\u001f', '\u007f', 'é', '\u2028', '\u2029', '😀', '\ud800', 'x\udc00y', 'tab\t', 'nl\n', '</script>'];
  // Seeded: the same strings every run (ASCII-heavy, and any UTF-16 code unit).
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 20_000; i++) {
    let s = '';
    for (let j = Math.floor(next() * 8); j > 0; j--) s += String.fromCharCode(Math.floor(next() * (next() < 0.5 ? 128 : 65536)));
    samples.push(s);
  }
  for (const s of samples) assert.equal(jsonString(s), JSON.stringify(s), JSON.stringify(s));
});
