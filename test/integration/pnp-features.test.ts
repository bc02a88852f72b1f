// Features of a web and of a site collection through an unmodified @pnp/sp 4.x client
// (issue #14): what a new team site has on, getById (null when off), add (refused when on,
// unless forced), remove (refused when off, forced or not), kept per web; unknown ids refused.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/features/index.js';
import '@pnp/sp/sites/index.js';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import '../helpers/pnp-feature-types.ts';

const FOLLOWING_CONTENT = 'a7a2793e-67cd-4dc1-9fd0-43f61581207a';
const TEAM_COLLAB = '00bfea71-4ea5-48d4-a4ad-7ea5c011abe5';
const LISTS_EXPERIENCE = 'e3540c7d-6bea-403c-a224-1a12eafee4c4';

describe('PnPjs features against spemu', () => {
  const spemu = usePnpSite();

  it('a web feature: off by default, added, added again only with force, removed, then refused', async () => {
    const web = spemu.sp.web.features;
    assert.ok((await web()).some((f) => f.DefinitionId === TEAM_COLLAB), 'a team site has its lists feature on');
    assert.equal((await web.getById(FOLLOWING_CONTENT)() as any)['odata.null'], true, 'off: SharePoint\'s null');
    const added = await web.add(FOLLOWING_CONTENT);
    assert.equal(added.data.DefinitionId, FOLLOWING_CONTENT);
    assert.equal((await web.getById(FOLLOWING_CONTENT)()).DefinitionId, FOLLOWING_CONTENT);
    const again = await failure(web.add(FOLLOWING_CONTENT));
    assert.equal(again.status, 400);
    assert.match(again.message, /is already activated at scope/);
    await web.add(FOLLOWING_CONTENT, true);
    await web.remove(FOLLOWING_CONTENT);
    assert.equal((await web.getById(FOLLOWING_CONTENT)() as any)['odata.null'], true, 'off: SharePoint\'s null');
    assert.equal((await failure(web.remove(FOLLOWING_CONTENT, true))).status, 400, 'forced or not, an off feature cannot be removed');
    await web.remove(TEAM_COLLAB);
    assert.ok(!(await web()).some((f) => f.DefinitionId === TEAM_COLLAB), 'a default one can be switched off too');
    assert.equal((await failure(web.add('11111111-2222-3333-4444-555555555555'))).status, 400);
    assert.equal((await failure(web.add(LISTS_EXPERIENCE))).status, 400, 'a site collection feature is not a web\'s');
  });

  it('a site collection feature, kept apart from each web\'s', async () => {
    await spemu.sp.site.features.add(LISTS_EXPERIENCE);
    assert.equal((await spemu.sp.site.features.getById(LISTS_EXPERIENCE)()).DefinitionId, LISTS_EXPERIENCE);
    await spemu.sp.web.webs.add('Feature sub', 'feature-sub');
    const sub = pnpFor(`${spemu.site}/feature-sub`);
    assert.ok((await sub.web.features()).some((f) => f.DefinitionId === TEAM_COLLAB), 'a new subweb has the defaults');
    assert.equal((await sub.site.features.getById(LISTS_EXPERIENCE)()).DefinitionId, LISTS_EXPERIENCE, 'the site collection\'s, from any web');
    await spemu.sp.site.features.remove(LISTS_EXPERIENCE);
  });
});
