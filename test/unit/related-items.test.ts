// The RelatedItems field's text (domain/related-items.ts): SharePoint's JSON read leniently,
// written exactly; a link kept once whatever the GUIDs' case or braces.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatLinks, parseLinks, withLink, withoutLink } from '../../src/domain/related-items.ts';

const WEB = '0f8fad5b-d9cb-469f-a165-70867728950e';
const LIST = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('related-item links in the RelatedItems field', () => {
  it('reads SharePoint\'s JSON, GUIDs made lower-case and bare', () => {
    const text = `[{"ItemId":3,"WebId":"{${WEB.toUpperCase()}}","ListId":"${LIST}"},{"ItemId":"4","WebId":"${WEB}","ListId":"${LIST}"}]`;
    assert.deepEqual(parseLinks(text), [{ itemId: 3, webId: WEB, listId: LIST }, { itemId: 4, webId: WEB, listId: LIST }]);
  });

  it('a value that is not that JSON holds no links; bad entries are skipped', () => {
    for (const v of [null, undefined, '', 'not json', '{"ItemId":1}', 42]) assert.deepEqual(parseLinks(v), []);
    assert.deepEqual(parseLinks(`[null,{"ItemId":0,"WebId":"${WEB}","ListId":"${LIST}"},{"ItemId":2,"WebId":1,"ListId":"${LIST}"},{"ItemId":5,"WebId":"${WEB}","ListId":"${LIST}"}]`),
      [{ itemId: 5, webId: WEB, listId: LIST }]);
  });

  it('writes the JSON back exactly, null for none', () => {
    assert.equal(formatLinks([]), null);
    assert.equal(formatLinks([{ itemId: 7, webId: WEB, listId: LIST }]), `[{"ItemId":7,"WebId":"${WEB}","ListId":"${LIST}"}]`);
  });

  it('adds a link once, in order; removes it in any GUID form', () => {
    const one = withLink([], { itemId: 1, webId: WEB, listId: LIST });
    const two = withLink(one, { itemId: 2, webId: `{${WEB.toUpperCase()}}`, listId: LIST });
    assert.deepEqual(two.map((l) => [l.itemId, l.webId]), [[1, WEB], [2, WEB]]);
    assert.equal(withLink(two, { itemId: 1, webId: WEB.toUpperCase(), listId: `{${LIST}}` }).length, 2);
    assert.deepEqual(withoutLink(two, { itemId: 1, webId: WEB, listId: LIST.toUpperCase() }).map((l) => l.itemId), [2]);
    assert.deepEqual(withoutLink(two, { itemId: 9, webId: WEB, listId: LIST }), two);
  });
});
