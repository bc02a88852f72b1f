// Permission levels through an unmodified @pnp/sp 4.x client (issue #14): a site collection's
// own level added as PnPjs's upstream security test adds it, found by name, id and in the
// collection, updated (its mask too), deleted; the built-in levels stay as shipped; a subweb
// shares its parent's and cannot change them.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/security/index.js';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';

describe('PnPjs permission levels against spemu', () => {
  const spemu = usePnpSite();

  it('add, getByName, getById, update (mask too), delete', async () => {
    const added = await spemu.sp.web.roleDefinitions.add('PNPJS Test Role Def', 'testing', 1000, { Low: 1, High: 0 });
    assert.equal(added.data.Name, 'PNPJS Test Role Def');
    assert.ok(added.data.Id > 1073741829, 'an id after the built-in ones');
    const byName = await spemu.sp.web.roleDefinitions.getByName('pnpjs test role def')();
    assert.deepEqual([byName.Id, byName.BasePermissions.Low, byName.BasePermissions.High, byName.Order], [added.data.Id, '1', '0', 1000]);
    await spemu.sp.web.roleDefinitions.getByName('PNPJS Test Role Def').update({ BasePermissions: { Low: 3, High: 0 } });
    assert.equal((await spemu.sp.web.roleDefinitions.getById(added.data.Id)()).BasePermissions.Low, '3');
    // (PnPjs's update always reads BasePermissions, so it is sent every time.)
    await spemu.sp.web.roleDefinitions.getById(added.data.Id).update({ Name: 'Renamed level', Description: 'changed', BasePermissions: { Low: 3, High: 0 } });
    assert.ok((await spemu.sp.web.roleDefinitions()).some((d) => d.Name === 'Renamed level' && d.Description === 'changed'));
    await spemu.sp.web.roleDefinitions.getById(added.data.Id).delete();
    assert.equal((await failure(spemu.sp.web.roleDefinitions.getById(added.data.Id)())).status, 404);
  });

  it('refusals: the built-in levels, a taken name, a bad mask, a subweb', async () => {
    assert.equal((await failure(spemu.sp.web.roleDefinitions.getByName('Read').update({ Description: 'x', BasePermissions: { Low: 1, High: 0 } }))).status, 400);
    assert.equal((await failure(spemu.sp.web.roleDefinitions.getByName('Edit').delete())).status, 400);
    assert.equal((await failure(spemu.sp.web.roleDefinitions.add('Read', '', 10, { Low: 1, High: 0 }))).status, 400);
    assert.equal((await failure(spemu.sp.web.roleDefinitions.add('Too big', '', 10, { Low: 2 ** 33, High: 0 }))).status, 400);
    await spemu.sp.web.webs.add('Levels sub', 'levels-sub');
    const sub = pnpFor(`${spemu.site}/levels-sub`);
    const refused = await failure(sub.web.roleDefinitions.add('Sub level', '', 10, { Low: 1, High: 0 }));
    assert.equal(refused.status, 400);
    assert.match(refused.message, /inherited permission levels/);
    const parentLevel = await spemu.sp.web.roleDefinitions.add('Shared level', '', 10, { Low: 5, High: 0 });
    assert.equal((await sub.web.roleDefinitions.getById(parentLevel.data.Id)()).Name, 'Shared level', 'a subweb sees its parent\'s levels');
  });
});
