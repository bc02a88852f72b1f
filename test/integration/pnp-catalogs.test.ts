// Catalogs through an unmodified @pnp/sp 4.x client (issue #14): `web.getCatalog(113)` as the
// upstream webs.ts calls it (the site collection's Web Part Gallery, a hidden library at
// `_catalogs/wp`, the same from a subweb), 112 the User Information List; catalog types spemu
// does not keep 501, a number that is no catalog type 400; clients cannot make a catalog.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/webs/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-types.ts';

describe('PnPjs catalogs against spemu', () => {
  const spemu = useTestServer();
  let sp: SPFI;

  before(() => { sp = pnpFor(spemu.server.site('/sites/dev')); });

  it('getCatalog(113): the Web Part Gallery, a hidden library of the root web, from the root web and a subweb', async () => {
    const gallery = await sp.web.getCatalog(113);
    const info = await gallery.select('Title', 'BaseTemplate', 'BaseType', 'Hidden', 'Id', 'RootFolder/ServerRelativeUrl').expand('RootFolder')();
    assert.deepEqual([info.Title, info.BaseTemplate, info.BaseType, info.Hidden, (info as any).RootFolder.ServerRelativeUrl],
      ['Web Part Gallery', 113, 1, true, '/sites/dev/_catalogs/wp']);
    await sp.web.webs.add('Catalog sub', 'catalogsub');
    const sub = pnpFor(`${spemu.server.site('/sites/dev')}/catalogsub`);
    const fromSub = await (await sub.web.getCatalog(113)).select('Id')();
    assert.equal(fromSub.Id, info.Id, 'a site collection has one gallery');
    const users = await (await sp.web.getCatalog(112)).select('Title', 'BaseTemplate')();
    assert.deepEqual([users.Title, users.BaseTemplate], ['User Information List', 112]);
  });

  it('a type spemu does not keep is 501, a number that is no catalog type 400; a client cannot make a gallery', async () => {
    assert.equal((await failure(sp.web.getCatalog(116))).status, 501);
    const unknown = await failure(sp.web.getCatalog(999));
    assert.equal(unknown.status, 400);
    assert.equal((await failure(sp.web.lists.add('My gallery', '', 113))).status, 400);
  });
});
