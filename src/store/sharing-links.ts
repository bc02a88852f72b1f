// Sharing links of items, folders and files (SP.SharingLinkInfo): at most one per object and kind.

export interface SharingLinkRow {
  /** SP.SharingLinkInfo ShareId: a GUID. */
  shareId: string;
  siteId: string;
  /** The object, named as role assignment scopes are: `item:<list row id>:<item id>`. */
  scope: string;
  /** SP.Sharing.SharingLinkKind: 1 Direct … 6 Flexible. */
  kind: number;
  /** The link's own part of its URL (`/:f:/s/site/<token>`). */
  token: string;
  /** ISO 8601 UTC, or null: it does not expire. */
  expiration: string | null;
  created: string;
  createdBy: number;
  modified: string;
  modifiedBy: number;
}

export interface SharingLinkRepository {
  /** The object's links, by kind. */
  of(siteId: string, scope: string): Promise<SharingLinkRow[]>;
  /** The link a URL's token names, if any. */
  byToken(token: string): Promise<SharingLinkRow | undefined>;
  /** Adds the link or, when the object has one of that kind, sets its expiration and modification (keeping its ShareId and token). */
  put(row: SharingLinkRow): Promise<void>;
  /** Removes the object's links of `kind` (and with that ShareId, when given); how many went. */
  remove(siteId: string, scope: string, kind: number, shareId?: string): Promise<number>;
  /** Removes every link of the object. */
  removeAll(siteId: string, scope: string): Promise<void>;
}
