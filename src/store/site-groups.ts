// A site collection's own SharePoint groups and their members (the three default groups are
// derived from the site's role holders: identity/site-groups.ts).

export interface StoredSiteGroup {
  id: number;
  title: string;
  description: string;
  ownerId: number | null;
  allowMembersEditMembership: boolean;
  onlyAllowMembersViewMembership: boolean;
}

export type SiteGroupPatch = Partial<Omit<StoredSiteGroup, 'id'>>;

export interface SiteGroupRepository {
  of(siteId: string): Promise<StoredSiteGroup[]>;
  /** False if the site has a group of that title (any case). */
  add(siteId: string, group: StoredSiteGroup): Promise<boolean>;
  /** Undefined if there is none; 'titleTaken' if another group has the new title. */
  update(siteId: string, id: number, patch: SiteGroupPatch): Promise<StoredSiteGroup | 'titleTaken' | undefined>;
  /** Removes the group and its memberships; false if there was none. */
  delete(siteId: string, id: number): Promise<boolean>;
  members(siteId: string, groupId: number): Promise<number[]>;
  /** The groups a site user is in. */
  groupsOf(siteId: string, userId: number): Promise<number[]>;
  addMember(siteId: string, groupId: number, userId: number): Promise<void>;
  removeMember(siteId: string, groupId: number, userId: number): Promise<boolean>;
}
