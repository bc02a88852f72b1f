// A fixed-shape entity's table (src/fronts/rest/api/entity-shape.ts): what a plain `$select`
// picks, in the shape's order, each value made only when picked; anything else (an `$expand`,
// `*`, a path, an unknown name) is left to the general path.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EntityShape } from '../../src/fronts/rest/api/entity-shape.ts';
import { parseRequestQuery } from '../../src/fronts/rest/query-options.ts';

const made: string[] = [];
const shape = new EntityShape<{ title: string }>('SP.Test', ['Lists', 'RoleAssignments'], [
  ['Id', 'fixed'],
  ['CurrentChangeToken', () => { made.push('token'); return 'placeholder'; }],
  ['Title', (s) => { made.push('title'); return s.title; }],
]);
const query = (text: string) => parseRequestQuery(text).options;

test('a plain $select picks its names in the shape\'s order, once each, and makes only those', () => {
  const q = query('$select=title,ID,Title,HasUniqueRoleAssignments,roleassignments,odata.type');
  const selection = shape.selection(q)!;
  assert.equal(shape.selection(q), selection, 'worked out once per parsed query');
  assert.deepEqual(selection, { props: [0, 2], deferred: ['RoleAssignments'], effectiveBasePermissions: false, hasUniqueRoleAssignments: true, changeToken: false });
  made.length = 0;
  assert.deepEqual(shape.picked(selection, { title: 'T' }), [['Id', 'fixed'], ['Title', 'T']]);
  assert.deepEqual(made, ['title']);
  assert.equal(shape.selection(query('$select=CurrentChangeToken'))!.changeToken, true);
  assert.deepEqual(shape.all({ title: 'T' }).map(([n]) => n), ['Id', 'CurrentChangeToken', 'Title']);
});

test('what a plain $select cannot answer is left to the general path', () => {
  for (const text of ['', '$select=*', '$select=Title&$expand=Lists', '$select=Title/Id', '$select=Nope', '$select=Title,Nope']) {
    assert.equal(shape.selection(query(text)), undefined, text);
  }
});
