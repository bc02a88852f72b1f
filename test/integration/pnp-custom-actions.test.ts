// User custom actions through an unmodified @pnp/sp 4.x client (issue #14): added on a web, a
// site collection and a list (an SPFx extension's registration among them), read by id,
// updated, deleted and cleared, each kept where it was added; bad properties refused.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/user-custom-actions/index.js';
import '@pnp/sp/sites/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-custom-action-types.ts';

describe('PnPjs user custom actions against spemu', () => {
  const spemu = useTestServer();
  let sp: SPFI;
  before(() => { sp = pnpFor(spemu.server.site('/sites/dev')); });

  it('on a web: add (an SPFx application customizer), getById, update, delete, clear', async () => {
    const actions = sp.web.userCustomActions;
    assert.deepEqual(await actions(), []);
    // (PnPjs's IUserCustomActionInfo type lacks the SPFx properties SharePoint has; they are sent as they are.)
    const added = await actions.add({
      Title: 'Header', Location: 'ClientSideExtension.ApplicationCustomizer',
      ClientSideComponentId: '{8B23A8B1-5B2A-4A3B-9A3C-1D2E3F4A5B6C}', ClientSideComponentProperties: '{"message":"hi"}', Sequence: 10,
    } as Record<string, unknown>);
    assert.match(added.data.Id, /^[0-9a-f-]{36}$/);
    const read = await actions.getById(added.data.Id)() as unknown as Record<string, unknown>;
    assert.deepEqual([read.Title, read.Location, read.ClientSideComponentId, read.Sequence, read.Scope, read.ScriptSrc],
      ['Header', 'ClientSideExtension.ApplicationCustomizer', '8b23a8b1-5b2a-4a3b-9a3c-1d2e3f4a5b6c', 10, 3, null]);
    await actions.getById(added.data.Id).update({ Title: 'Header 2' });
    assert.equal((await actions.getById(added.data.Id)()).Title, 'Header 2');
    const second = await actions.add({ Title: 'Script', Location: 'ScriptLink', ScriptSrc: '~site/SiteAssets/x.js' });
    assert.deepEqual((await actions()).map((a) => a.Title), ['Header 2', 'Script']);
    await actions.getById(second.data.Id).delete();
    assert.equal((await failure(actions.getById(second.data.Id)())).status, 404);
    await actions.clear();
    assert.deepEqual(await actions(), []);
  });

  it('on a site collection and a list, apart from the web\'s; bad properties refused', async () => {
    await sp.site.userCustomActions.add({ Title: 'Site wide', Location: 'ScriptLink' });
    const { list } = await sp.web.lists.ensure('Actions list', '', 100);
    await list.userCustomActions.add({ Title: 'Command', Location: 'ClientSideExtension.ListViewCommandSet.CommandBar', RegistrationType: 1, RegistrationId: '100' });
    assert.deepEqual((await sp.site.userCustomActions()).map((a) => [a.Title, a.Scope]), [['Site wide', 2]]);
    assert.deepEqual((await list.userCustomActions()).map((a) => [a.Title, a.Scope]), [['Command', 4]]);
    assert.deepEqual(await sp.web.userCustomActions(), []);
    assert.equal((await failure(sp.web.userCustomActions.add({ Sequence: -1 }))).status, 400);
    assert.equal((await failure(sp.web.userCustomActions.add({ NoSuchProperty: 'x' } as any))).status, 400);
    assert.equal((await failure(sp.web.userCustomActions.add({ ClientSideComponentId: 'not a guid' } as Record<string, unknown>))).status, 400);
    assert.deepEqual(await sp.web.userCustomActions(), [], 'nothing was added');
  });
});
