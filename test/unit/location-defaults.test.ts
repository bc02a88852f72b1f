// Column defaults per folder (domain/location-defaults.ts): reading a library's
// client_LocationBasedDefaults.html, as PnPjs and SharePoint's settings page write it, and the
// values a new file in a folder takes from its nearest entries.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultsForFolder, parseLocationDefaults } from '../../src/domain/location-defaults.ts';
import type { Field } from '../../src/domain/model.ts';
import type { FieldKind } from '../../src/domain/field-kinds.ts';

let next = 1;
function field(internalName: string, kind: FieldKind, readOnly = false): Field {
  const rowId = next++;
  return {
    rowId, id: `00000000-0000-0000-0000-${String(rowId).padStart(12, '0')}`, listRowId: 1, internalName, title: internalName, kind,
    required: false, indexed: false, hidden: false, readOnly, builtIn: false, column: `c${rowId}`, position: rowId, options: {},
  };
}

const FIELDS = [field('Text1', 'Text'), field('Num', 'Number'), field('Tags', 'MultiChoice'), field('Yes', 'Boolean'),
  field('Owner', 'User'), field('Owners', 'UserMulti'), field('Created', 'DateTime', true), field('When', 'DateTime')];

describe('location-based column defaults', () => {
  it('reads PnPjs\'s file: hrefs decoded, values and names unescaped, in order', () => {
    const xml = '<MetadataDefaults><a href="/sites/dev/My%20Docs"><DefaultValue FieldName="Text1">a &amp; b</DefaultValue>'
      + '<DefaultValue FieldName="Num">1</DefaultValue></a><a href="/sites/dev/My%20Docs/Sub"><DefaultValue FieldName="Text1">sub</DefaultValue></a></MetadataDefaults>';
    const entries = parseLocationDefaults(xml);
    assert.deepEqual(entries.map((e) => [e.path, [...e.values]]), [
      ['/sites/dev/My Docs', [['Text1', 'a & b'], ['Num', '1']]],
      ['/sites/dev/My Docs/Sub', [['Text1', 'sub']]],
    ]);
  });

  it('the deepest entry at or above the folder wins, per column; others and siblings do not apply', () => {
    const entries = parseLocationDefaults('<MetadataDefaults><a href="/sites/dev/Docs"><DefaultValue FieldName="Text1">root</DefaultValue>'
      + '<DefaultValue FieldName="Num">42</DefaultValue></a><a href="/sites/dev/Docs/A"><DefaultValue FieldName="Text1">a</DefaultValue></a>'
      + '<a href="/sites/dev/Docs/AB"><DefaultValue FieldName="Num">7</DefaultValue></a></MetadataDefaults>');
    assert.deepEqual(defaultsForFolder(entries, '/sites/dev/Docs', FIELDS), { Text1: 'root', Num: 42 });
    assert.deepEqual(defaultsForFolder(entries, '/sites/dev/docs/a/deeper', FIELDS), { Text1: 'a', Num: 42 });
    assert.deepEqual(defaultsForFolder(entries, '/sites/dev/Other', FIELDS), {});
  });

  it('reads each kind as SharePoint stores it; what does not read is passed over', () => {
    const entries = [{
      path: '/sites/dev/Docs', values: new Map([
        ['Tags', ';#x;#y;#'], ['Yes', 'TRUE'], ['Owner', '12;#i:0#.f|membership|a@b.c'], ['Owners', '3;#a;#4;#b'], ['When', '2024-05-01T10:00:00Z'],
        ['Created', '2024-01-01T00:00:00Z'], ['Num', 'twelve'], ['Nope', 'x'], ['Text1', ''],
      ]),
    }];
    assert.deepEqual(defaultsForFolder(entries, '/sites/dev/Docs', FIELDS), {
      Tags: '["x","y"]', Yes: 1, Owner: 12, Owners: '[3,4]', When: '2024-05-01T10:00:00Z',
    });
    const pnp = [{ path: '/sites/dev/Docs', values: new Map([['Tags', 'Item 1;Item 3'], ['Owner', '-1;#i:0#.f|membership|a@b.c']]) }];
    assert.deepEqual(defaultsForFolder(pnp, '/sites/dev/Docs', FIELDS), { Tags: '["Item 1","Item 3"]' });
  });

  it('a file that is no such XML reads as no entries, never an error', () => {
    for (const text of ['', 'not xml', '<MetadataDefaults><a href=', '\u0000\ufffd<a>', '<a href="/x"><DefaultValue>no name</DefaultValue></a>']) {
      const entries = parseLocationDefaults(text);
      assert.deepEqual(entries.flatMap((e) => [...e.values]), [], text);
    }
  });
});
