// The CAML parser alone: what a `<View>` becomes (scope, where, order, fields, row limit), the
// `$filter` syntax tree CAML's own constructs turn into, and what it refuses, by reason.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseCamlView, type CamlContext } from '../../src/query/caml/parse.ts';
import type { Expression } from '../../src/query/ast.ts';
import { CamlError, type CamlErrorReason } from '../../src/query/caml/errors.ts';
import { MAX_CAML_DEPTH } from '../../src/query/caml/xml.ts';

const CONTEXT: CamlContext = { userId: 7, now: '2024-06-10T15:00:00Z', shownFieldOf: (name) => (name === 'Owner' ? 'Title' : undefined) };
const parse = (xml: string) => parseCamlView(xml, CONTEXT);
const whereOf = (condition: string) => parse(`<View><Query><Where>${condition}</Where></Query></View>`).where;
const refuses = (xml: string, reason: CamlErrorReason) =>
  assert.throws(() => parse(xml), (e: unknown) => e instanceof CamlError && e.reason === reason, `${xml} → ${reason}`);

describe('CAML views', () => {
  it('reads scope, order, fields and row limit; an empty text is an empty view', () => {
    const view = parse(`<View Scope="RecursiveAll"><Query><OrderBy><FieldRef Name="Title" Ascending="FALSE"/><FieldRef Name="ID"/></OrderBy></Query>
      <ViewFields><FieldRef Name="Title"/><FieldRef Name="Due"/></ViewFields><RowLimit Paged="TRUE">25</RowLimit></View>`);
    assert.deepEqual(view, {
      scope: 'RecursiveAll', orderBy: [{ name: 'Title', ascending: false }, { name: 'ID', ascending: true }],
      viewFields: ['Title', 'Due'], rowLimit: 25, paged: true,
    });
    assert.deepEqual(parse(''), { scope: 'Default', orderBy: [], viewFields: [], paged: false });
    assert.equal(parse('<View Scope="Recursive"/>').scope, 'Recursive');
    assert.equal(parse('<View Scope="FilesOnly"/>').scope, 'FilesOnly');
  });

  it('turns comparisons into the $filter tree, entities decoded and text kept as written', () => {
    assert.deepEqual(whereOf('<Neq><FieldRef Name="Title"/><Value Type="Text"> a &amp; b&#39;s </Value></Neq>'), {
      kind: 'compare', op: 'ne', left: { kind: 'member', path: ['Title'] }, right: { kind: 'literal', type: 'string', value: ' a & b\'s ' },
    });
    assert.deepEqual(whereOf('<BeginsWith><FieldRef Name="Title"/><Value Type="Text">x</Value></BeginsWith>'), {
      kind: 'call', name: 'startswith', args: [{ kind: 'member', path: ['Title'] }, { kind: 'literal', type: 'string', value: 'x' }],
    });
    assert.deepEqual(whereOf('<IsNull><FieldRef Name="Due"/></IsNull>'), {
      kind: 'compare', op: 'eq', left: { kind: 'member', path: ['Due'] }, right: { kind: 'literal', type: 'null' },
    });
  });

  it('people and lookups: by id with LookupId or <UserID/>, by their shown text otherwise', () => {
    const byId = whereOf('<Eq><FieldRef Name="Owner" LookupId="TRUE"/><Value Type="Integer"><UserID/></Value></Eq>');
    assert.deepEqual(byId, { kind: 'compare', op: 'eq', left: { kind: 'member', path: ['Owner'] }, right: { kind: 'literal', type: 'number', value: 7, raw: '7' } });
    const byText = whereOf('<Eq><FieldRef Name="Owner"/><Value Type="User">Alice</Value></Eq>');
    assert.deepEqual(byText, { kind: 'compare', op: 'eq', left: { kind: 'member', path: ['Owner', 'Title'] }, right: { kind: 'literal', type: 'string', value: 'Alice' } });
  });

  it('dates: a day unless IncludeTimeValue; <Today/> with an offset', () => {
    const day = whereOf('<Gt><FieldRef Name="Due"/><Value Type="DateTime">2024-02-28T10:00:00Z</Value></Gt>');
    assert.deepEqual(day, { kind: 'compare', op: 'ge', left: { kind: 'member', path: ['Due'] }, right: { kind: 'literal', type: 'datetime', value: '2024-02-29T00:00:00Z' } });
    const exact = whereOf('<Gt><FieldRef Name="Due"/><Value Type="DateTime" IncludeTimeValue="TRUE">2024-02-28T10:00:00Z</Value></Gt>');
    assert.deepEqual(exact, { kind: 'compare', op: 'gt', left: { kind: 'member', path: ['Due'] }, right: { kind: 'literal', type: 'datetime', value: '2024-02-28T10:00:00Z' } });
    const today = whereOf('<Lt><FieldRef Name="Due"/><Value Type="DateTime"><Today OffsetDays="-10"/></Value></Lt>');
    assert.deepEqual(today, { kind: 'compare', op: 'lt', left: { kind: 'member', path: ['Due'] }, right: { kind: 'literal', type: 'datetime', value: '2024-05-31T00:00:00Z' } });
  });

  it('In is an or-chain of equalities; And and Or nest', () => {
    const chain = whereOf('<In><FieldRef Name="N"/><Values><Value Type="Number">1</Value><Value Type="Number">2</Value><Value Type="Number">3</Value></Values></In>');
    assert.equal(chain?.kind, 'logical');
    const eqs: number[] = [];
    const walk = (e: Expression): void => {
      if (e.kind === 'logical') { assert.equal(e.op, 'or'); walk(e.left); walk(e.right); } else if (e.kind === 'compare' && e.right.kind === 'literal' && e.right.type === 'number') eqs.push(e.right.value);
    };
    walk(chain!);
    assert.deepEqual(eqs, [1, 2, 3]);
    const nested = whereOf('<And><Or><IsNull><FieldRef Name="A"/></IsNull><IsNull><FieldRef Name="B"/></IsNull></Or><IsNotNull><FieldRef Name="C"/></IsNotNull></And>');
    assert.equal(nested?.kind === 'logical' && nested.op === 'and' && nested.left.kind === 'logical' && nested.left.op, 'or');
  });

  it('refuses, by reason', () => {
    refuses('<View><Query>', 'malformed');
    refuses('<Query/>', 'malformed');
    refuses('<View><Query><Where><Contains><FieldRef Name="T"/><Value Type="Text">&#0;</Value></Contains></Where></Query></View>', 'malformed');
    refuses('<View><Query><Where><Or><IsNull><FieldRef Name="A"/></IsNull></Or></Where></Query></View>', 'invalidQuery');
    refuses('<View><Query><Where><Eq><FieldRef Name="A"/></Eq></Where></Query></View>', 'invalidQuery');
    refuses('<View><Query><Where><Eq><Value Type="Text">x</Value></Eq></Where></Query></View>', 'invalidQuery');
    refuses('<View><Query><Where><Like><FieldRef Name="A"/><Value Type="Text">x</Value></Like></Where></Query></View>', 'invalidQuery');
    refuses('<View Scope="Everything"/>', 'invalidQuery');
    refuses('<View><Query><Where><Eq><FieldRef Name="A"/><Value Type="Number">1x</Value></Eq></Where></Query></View>', 'invalidValue');
    refuses('<View><Query><Where><Eq><FieldRef Name="A"/><Value Type="Boolean">yes</Value></Eq></Where></Query></View>', 'invalidValue');
    refuses('<View><RowLimit>ten</RowLimit></View>', 'invalidValue');
    refuses('<View><Query><Where><Membership Type="CurrentUserGroups"><FieldRef Name="A"/></Membership></Where></Query></View>', 'unsupported');
    const deep = `<View><Query><Where>${'<And>'.repeat(MAX_CAML_DEPTH)}${'</And>'.repeat(MAX_CAML_DEPTH)}</Where></Query></View>`;
    refuses(deep, 'tooComplex');
  });
});
