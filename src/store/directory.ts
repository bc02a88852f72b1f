// The tenant directory (Entra ID's role): users, groups and memberships, who holds which
// role on each site, and profile photos. Implemented on SQL next to the Store.

export interface DirectoryUser {
  upn: string;
  displayName: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  jobTitle: string | null;
  department: string | null;
  /** Entra object id (a GUID): SharePoint names profile photos after it. */
  objectId: string;
  /** 16 hex digits: SharePoint Online's NameId (`UserId.NameId`). */
  puid: string;
  profile: Record<string, string | string[]>;
}

export interface DirectoryGroup {
  id: string;
  displayName: string;
  kind: 'security' | 'm365';
  mail: string | null;
}

export type SiteRoleName = 'owner' | 'member' | 'visitor';

export interface SiteRole {
  role: SiteRoleName;
  /** A user's UPN or a group's id, lower-cased. */
  principal: string;
}

export interface Photo {
  contentType: string;
  bytes: Buffer;
  /** ISO time of the last change: drives ETag and SPS-PictureTimestamp. */
  updated: string;
}

export interface Directory {
  addUser(user: DirectoryUser, passwordHash: string | null): Promise<void>;
  addGroup(group: DirectoryGroup, members: string[]): Promise<void>;
  /** By UPN or email, ignoring case. */
  findUser(upnOrEmail: string): Promise<DirectoryUser | undefined>;
  listUsers(): Promise<DirectoryUser[]>;
  /** The stored password hash; null when the user has no password, undefined when no such user. */
  passwordHash(upn: string): Promise<string | null | undefined>;
  /** By id or display name, ignoring case. */
  findGroup(idOrName: string): Promise<DirectoryGroup | undefined>;
  /** Direct members: UPNs (lower-cased) and group ids. */
  groupMembers(groupId: string): Promise<string[]>;
  /** Every group the user is in, directly or through nested groups. */
  groupsOf(upn: string): Promise<DirectoryGroup[]>;
  setProfileProperty(upn: string, name: string, value: string | string[]): Promise<void>;
  setSiteRoles(siteId: string, roles: SiteRole[]): Promise<void>;
  siteRoles(siteId: string): Promise<SiteRole[]>;
  getPhoto(upn: string): Promise<Photo | undefined>;
  setPhoto(upn: string, photo: Photo): Promise<void>;
}
