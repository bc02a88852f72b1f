// Type-level only, as pnp-types.ts: @pnp/sp 4.x's site-users and site-groups features augment
// `declare module "../webs/types"`, which nodenext resolution drops. This restates them against
// a specifier that resolves. The features themselves load by side-effect import in the tests.

import type { ISiteUser, ISiteUserInfo, ISiteUsers } from '@pnp/sp/site-users/types.js';
import type { ISiteGroup, ISiteGroups } from '@pnp/sp/site-groups/types.js';

declare module '@pnp/sp/webs/types.js' {
  interface IWeb {
    readonly siteUsers: ISiteUsers;
    readonly currentUser: ISiteUser;
    ensureUser(loginName: string): Promise<ISiteUserInfo>;
    getUserById(id: number): ISiteUser;
    readonly siteGroups: ISiteGroups;
    readonly associatedOwnerGroup: ISiteGroup;
    readonly associatedMemberGroup: ISiteGroup;
    readonly associatedVisitorGroup: ISiteGroup;
  }
}

export {};
