// The storage interface: one repository per aggregate, each a small interface of its own
// file, over one SQL implementation for SQLite and PostgreSQL (sql/). The services, the
// identity layer and the fronts talk only to these.
//
// Adding an aggregate: its interface in a file here, its SQL implementation in sql/, and one
// line in each registration (`Repositories` below, REPOSITORIES in sql/repositories.ts).

import type { NewField, NewList } from '../domain/model.ts';
import type { Directory } from './directory.ts';
import type { FieldRepository } from './fields.ts';
import type { ItemRepository } from './items.ts';
import type { ListRepository } from './lists.ts';
import type { ProjectDataStore } from './projectdata.ts';
import type { SettingsRepository } from './settings.ts';
import type { SiteRepository } from './sites.ts';
import type { UnitOfWork } from './unit-of-work.ts';
import type { VersionRepository } from './versions.ts';
import type { BlobStore } from './blobs.ts';
import type { DocumentRepository } from './documents.ts';
import type { UploadRepository } from './uploads.ts';
import type { AttachmentRepository } from './attachments.ts';
import type { ViewRepository } from './views.ts';
import type { ContentTypeRepository } from './content-types.ts';
import type { NavigationRepository } from './navigation.ts';
import type { FeatureRepository } from './features.ts';
import type { CustomActionRepository } from './custom-actions.ts';
import type { FormsFileRepository } from './forms-files.ts';
import type { SiteGroupRepository } from './site-groups.ts';
import type { RoleDefinitionRepository } from './role-definitions.ts';
import type { RoleAssignmentRepository } from './role-assignments.ts';
import type { SharingLinkRepository } from './sharing-links.ts';
import type { CommentRepository } from './comments.ts';
import type { SiteDesignRepository } from './site-designs.ts';
import type { SiteColumnRepository } from './site-columns.ts';
import type { SubscriptionRepository } from './subscriptions.ts';
import type { ChangeRepository } from './changes.ts';
import type { HubSiteRepository } from './hub-sites.ts';
import type { SiteScriptRepository } from './site-scripts.ts';
import type { RecycleBinRepository } from './recycle-bin.ts';

export type { NewField, NewList };
export type { FieldPatch } from './fields.ts';
export type { SiteColumnPatch } from './site-columns.ts';
export type { ItemPage, ItemQuery, ItemWrite, SortKey } from './items.ts';
export type { ListPatch } from './lists.ts';

/** The aggregates, by the name callers reach them under (`store.lists.byTitle(…)`). */
export interface Repositories {
  settings: SettingsRepository;
  sites: SiteRepository;
  lists: ListRepository;
  fields: FieldRepository;
  /** A web's site columns (site-columns.ts). */
  siteColumns: SiteColumnRepository;
  items: ItemRepository;
  versions: VersionRepository;
  /** The tenant directory (users, groups, site roles, photos): Entra ID's part. */
  directory: Directory;
  /** The ProjectData reporting feed's rows and settings. */
  projectData: ProjectDataStore;
  /** Bytes of files, attachments and versions (blobs.ts). */
  blobs: BlobStore;
  /** Files and folders: items placed in their list's folder tree (documents.ts). */
  documents: DocumentRepository;
  /** Chunked uploads in progress (uploads.ts). */
  uploads: UploadRepository;
  /** List item attachments (attachments.ts). */
  attachments: AttachmentRepository;
  /** List views (views.ts). */
  views: ViewRepository;
  /** Content types defined in webs and bound to lists (content-types.ts). */
  contentTypes: ContentTypeRepository;
  /** Webs' quick launch and top navigation bar (navigation.ts). */
  navigation: NavigationRepository;
  /** Features switched on or off in webs and site collections (features.ts). */
  features: FeatureRepository;
  /** User custom actions of site collections, webs and lists (custom-actions.ts). */
  customActions: CustomActionRepository;
  /** A site collection's own SharePoint groups and their members (site-groups.ts). */
  siteGroups: SiteGroupRepository;
  /** Permission levels a site collection defines (role-definitions.ts). */
  roleDefinitions: RoleDefinitionRepository;
  /** Unique permissions of webs, lists and items, and their role assignments (role-assignments.ts). */
  roleAssignments: RoleAssignmentRepository;
  /** List webhook subscriptions and the outbox of their notifications (subscriptions.ts). */
  subscriptions: SubscriptionRepository;
  /** The change log: what every write changed, numbered per site collection (changes.ts). */
  changes: ChangeRepository;
  /** Sharing links of items, folders and files (sharing-links.ts). */
  sharingLinks: SharingLinkRepository;
  /** Site collections registered as hub sites (hub-sites.ts). */
  hubSites: HubSiteRepository;
  /** The tenant's site scripts (site-scripts.ts). */
  siteScripts: SiteScriptRepository;
  /** The tenant's site designs, their rights and runs (site-designs.ts). */
  siteDesigns: SiteDesignRepository;
  /** The files of a library's Forms folder that are no items, such as its column defaults (forms-files.ts). */
  formsFiles: FormsFileRepository;
  /** Item comments, their likes and replies, and item ratings (comments.ts). */
  comments: CommentRepository;
  /** The site collection's recycle bin, both stages (recycle-bin.ts). */
  recycleBin: RecycleBinRepository;
}

/**
 * The read side of the store: what a front may do with storage directly. Every write goes
 * through a service (src/services/), where its rules are; a front holding only this cannot
 * bypass them.
 */
export interface StoreReader {
  settings: Pick<SettingsRepository, 'get'>;
  sites: Pick<SiteRepository, 'all' | 'byUrl' | 'web' | 'websOf'>;
  lists: Pick<ListRepository, 'inWeb' | 'byId' | 'byTitle' | 'byUrl' | 'byRowId' | 'withCounters'>;
  fields: Pick<FieldRepository, 'of'>;
  siteColumns: Pick<SiteColumnRepository, 'of'>;
  items: Pick<ItemRepository, 'query' | 'get' | 'getMany'>;
  versions: Pick<VersionRepository, 'of'>;
  directory: Pick<Directory, 'findUser' | 'listUsers' | 'findGroup' | 'groupMembers' | 'groupsOf' | 'siteRoles' | 'getPhoto'>;
  projectData: Pick<ProjectDataStore, 'options' | 'schema' | 'query' | 'importMarks'>;
  blobs: Pick<BlobStore, 'open' | 'size'>;
  documents: Pick<DocumentRepository, 'at' | 'children' | 'byUniqueId' | 'count' | 'below' | 'metrics'>;
  attachments: Pick<AttachmentRepository, 'of' | 'get'>;
  views: Pick<ViewRepository, 'of'>;
  contentTypes: Pick<ContentTypeRepository, 'of'>;
  navigation: Pick<NavigationRepository, 'children' | 'all' | 'byId'>;
  features: Pick<FeatureRepository, 'states'>;
  customActions: Pick<CustomActionRepository, 'of'>;
  siteGroups: Pick<SiteGroupRepository, 'of' | 'members' | 'groupsOf'>;
  roleDefinitions: Pick<RoleDefinitionRepository, 'of'>;
  roleAssignments: Pick<RoleAssignmentRepository, 'scopes' | 'folderScopes'>;
  subscriptions: Pick<SubscriptionRepository, 'get' | 'ofList' | 'pending'>;
  changes: Pick<ChangeRepository, 'query' | 'latest'>;
  /**
   * A number that moves whenever cached metadata is invalidated (a write, or another
   * instance's change seen by `sync`): what a reader derived from metadata at one value
   * still holds while it stays. NaN inside a transaction (nothing there is cached).
   */
  generation(): number;
  sharingLinks: Pick<SharingLinkRepository, 'of' | 'byToken'>;
  hubSites: Pick<HubSiteRepository, 'all' | 'get' | 'joinedHub'>;
  siteScripts: Pick<SiteScriptRepository, 'all' | 'get'>;
  siteDesigns: Pick<SiteDesignRepository, 'all' | 'get' | 'rights' | 'runs' | 'run'>;
  formsFiles: Pick<FormsFileRepository, 'of'>;
  comments: Pick<CommentRepository, 'of' | 'get' | 'likes' | 'itemLikes' | 'commentCounts'>;
  recycleBin: Pick<RecycleBinRepository, 'of' | 'get'>;
}

/** Storage. Every write is atomic; an error leaves nothing behind. */
export interface Store extends Repositories {
  /**
   * Runs `fn` as one unit of work: every write through the store it is given commits
   * together or not at all. Inside one, `transaction` joins it.
   */
  transaction<T>(fn: (store: Store, work: UnitOfWork) => Promise<T>): Promise<T>;
  /**
   * Once per request where other instances write to the same database: drops cached
   * metadata they changed since the last call (one cheap query).
   */
  sync(): Promise<void>;
  /**
   * After a bulk load (a seeded tenant): fresh planner statistics. PostgreSQL's planner
   * otherwise guesses from an empty table and may take the wrong index for a query
   * (`ANALYZE`); on SQLite, nothing (its plans come from its rules, without statistics).
   */
  refreshStatistics(): Promise<void>;
  /** See StoreReader. */
  generation(): number;
  close(): Promise<void>;
}
