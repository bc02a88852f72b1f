// Sharing an item, a folder or a file (and a web), as SharePoint's ShareObject, UnshareObject
// and sharing links do it. Sharing with people is real: the object stops inheriting (copying
// what it had) and each principal gets a role assignment with the permission level named, or,
// for `group:<id>`, joins that SharePoint group. Unsharing makes the object inherit again and
// removes its links. A link is a record per object and kind; the URL it gives is its token.

import { randomBytes, randomUUID } from 'node:crypto';
import { fail } from '../domain/errors.ts';
import type { Item, Site } from '../domain/model.ts';
import { allRoleDefinitions } from '../identity/role-levels.ts';
import { allSiteGroups } from '../identity/site-groups.ts';
import type { SitePrincipal } from '../identity/site-users.ts';
import { assignmentsOf, scopeKey, type Securable } from '../identity/effective-permissions.ts';
import type { SharingLinkRow } from '../store/sharing-links.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';
import { PermissionService } from './permissions.ts';
import { PrincipalService } from './principals.ts';
import { SiteGroupService } from './site-groups.ts';

/** What `roleValue` names: a permission level (`role:<id>`) or a SharePoint group to join (`group:<id>`). */
export type ShareTarget = { kind: 'role'; id: number } | { kind: 'group'; id: number };

/** SP.Sharing.SharingLinkKind values a link can be made of (Uninitialized 0 and Flexible 6 cannot). */
export const LINK_KINDS = { Direct: 1, OrganizationView: 2, OrganizationEdit: 3, AnonymousView: 4, AnonymousEdit: 5 } as const;
export const isAnonymousKind = (kind: number) => kind === LINK_KINDS.AnonymousView || kind === LINK_KINDS.AnonymousEdit;

/** `role:1073741827`, `role: 1073741827` (PnPjs's web.shareObject writes a space), `group:5`. */
export function parseRoleValue(text: unknown): ShareTarget {
  const m = typeof text === 'string' ? /^\s*(role|group)\s*:\s*(\d+)\s*$/i.exec(text) : null;
  if (!m) throw fail.badArgument('roleValue must be role:<role definition id> or group:<group id>.');
  return { kind: m[1]!.toLowerCase() as 'role' | 'group', id: Number(m[2]) };
}

export class SharingService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  /** Gives each principal access to the object (its site user row made if need be); their rows, in order. */
  async share(site: Site, s: Securable, who: readonly SitePrincipal[], target: ShareTarget): Promise<Item[]> {
    if (target.kind === 'role' && !(await allRoleDefinitions(this.store, site.id)).some((d) => d.id === target.id)) throw fail.roleDefinitionNotFound();
    const group = target.kind === 'group' ? (await allSiteGroups(this.store, site)).find((g) => g.id === target.id) : undefined;
    if (target.kind === 'group' && !group) throw fail.groupNotFound();
    return this.store.transaction(async (tx) => {
      const rows: Item[] = [];
      for (const p of who) rows.push(await new PrincipalService(tx, this.actor).ensure(site, p, this.actor.userId));
      if (group) {
        // A SharePoint group cannot hold another group; people join it, and the group keeps its access.
        for (const p of who) {
          if (p.kind !== 'user') throw fail.badArgument('A SharePoint group cannot contain another SharePoint group.');
          await new SiteGroupService(tx, this.actor).addMember(site, group, p);
        }
        return rows;
      }
      const permissions = new PermissionService(tx, this.actor);
      if (!(await assignmentsOf(tx, site, s)).unique) await permissions.breakInheritance(site, s, true, false);
      for (const row of rows) await permissions.add(site, s, row.id, target.id);
      return rows;
    });
  }

  /** The object inherits its parent's permissions again, and its sharing links go. */
  async unshare(site: Site, s: Securable): Promise<void> {
    await this.store.transaction(async (tx) => {
      if (s.kind !== 'web' || s.web.parentId !== null) {
        if ((await assignmentsOf(tx, site, s)).unique) await new PermissionService(tx, this.actor).resetInheritance(site, s);
      }
      await tx.sharingLinks.removeAll(site.id, scopeKey(s));
    });
  }

  /** The object's link of `kind`, made if it has none; an anonymous link's expiration is (re)set. */
  async link(site: Site, s: Securable, kind: number, expiration: string | null): Promise<SharingLinkRow> {
    if (!Object.values(LINK_KINDS).includes(kind as never)) throw fail.badArgument('A link can be made of linkKind 1 (Direct) to 5 (AnonymousEdit); a Flexible link (6) is not supported.');
    const scope = scopeKey(s);
    const now = this.actor.now();
    const existing = (await this.store.sharingLinks.of(site.id, scope)).find((l) => l.kind === kind);
    const row: SharingLinkRow = existing
      ? { ...existing, expiration: isAnonymousKind(kind) ? expiration : null, modified: now, modifiedBy: this.actor.userId }
      : {
        shareId: randomUUID(), siteId: site.id, scope, kind, token: newToken(), expiration: isAnonymousKind(kind) ? expiration : null,
        created: now, createdBy: this.actor.userId, modified: now, modifiedBy: this.actor.userId,
      };
    await this.store.sharingLinks.put(row);
    // What is stored: another request may have made this kind of link a moment before.
    return (await this.store.sharingLinks.of(site.id, scope)).find((l) => l.kind === kind) ?? row;
  }

  /** Removes the object's links of a kind (with that ShareId, unless it is the empty GUID). */
  async removeLinks(site: Site, s: Securable, kind: number, shareId?: string): Promise<void> {
    if (!Number.isInteger(kind) || kind < 0 || kind > 6) throw fail.badArgument('linkKind must be a SharingLinkKind from 0 (Uninitialized) to 6 (Flexible).');
    const any = shareId === undefined || /^0{8}-0{4}-0{4}-0{4}-0{12}$/.test(shareId);
    await this.store.sharingLinks.remove(site.id, scopeKey(s), kind, any ? undefined : shareId.toLowerCase());
  }
}

/** A share token as SharePoint's look: 22 URL-safe characters, starting with `E`. */
const newToken = (): string => `E${randomBytes(16).toString('base64url').slice(0, 21)}`;
