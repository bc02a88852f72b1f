// Which SQL class implements each aggregate of the Store (store.ts `Repositories`). A session
// builds them all: the store's own outside a transaction, a transaction's inside one.

import type { Repositories } from '../store.ts';
import type { PdTable } from './projectdata-store.ts';
import { SqlProjectDataStore } from './projectdata-store.ts';
import { SqlDirectory } from './sql-directory.ts';
import { SqlFields } from './fields.ts';
import { SqlSiteColumns } from './site-columns.ts';
import { SqlItems } from './items.ts';
import { SqlLists } from './lists.ts';
import type { SqlSession } from './session.ts';
import { SqlSettings } from './settings.ts';
import { SqlSites } from './sites.ts';
import { SqlVersions } from './versions.ts';
import { SqlBlobs } from './blobs.ts';
import { SqlDocuments } from './documents.ts';
import { SqlUploads } from './uploads.ts';
import { SqlAttachments } from './attachments.ts';
import { SqlViews } from './views.ts';
import { SqlContentTypes } from './content-types.ts';
import { SqlNavigation } from './navigation.ts';
import { SqlFeatures } from './features.ts';
import { SqlCustomActions } from './custom-actions.ts';
import { SqlSiteGroups } from './site-groups.ts';
import { SqlRoleDefinitions } from './role-definitions.ts';
import { SqlRoleAssignments } from './role-assignments.ts';
import { SqlSubscriptions } from './subscriptions.ts';
import { SqlChanges } from './changes.ts';
import { SqlSharingLinks } from './sharing-links.ts';
import { SqlHubSites } from './hub-sites.ts';
import { SqlSiteScripts } from './site-scripts.ts';
import { SqlFormsFiles } from './forms-files.ts';
import { SqlComments } from './comments.ts';
import { SqlRecycleBin } from './recycle-bin.ts';
import { SqlSiteDesigns } from './site-designs.ts';

/** What a repository may keep beyond its session: memory that outlives one transaction. */
export interface RepositoryMemory {
  /** ProjectData's known data tables (never kept inside a transaction: a rollback would undo one). */
  pdTables?: Map<string, PdTable> | undefined;
}

export const REPOSITORIES: { [K in keyof Repositories]: (session: SqlSession, memory: RepositoryMemory) => Repositories[K] } = {
  settings: (s) => new SqlSettings(s),
  sites: (s) => new SqlSites(s),
  lists: (s) => new SqlLists(s),
  fields: (s) => new SqlFields(s),
  siteColumns: (s) => new SqlSiteColumns(s),
  items: (s) => new SqlItems(s),
  versions: (s) => new SqlVersions(s),
  directory: (s) => new SqlDirectory(s),
  projectData: (s, memory) => new SqlProjectDataStore(s, memory.pdTables),
  blobs: (s) => new SqlBlobs(s, s.options.bytes),
  documents: (s) => new SqlDocuments(s),
  uploads: (s) => new SqlUploads(s),
  attachments: (s) => new SqlAttachments(s),
  views: (s) => new SqlViews(s),
  contentTypes: (s) => new SqlContentTypes(s),
  navigation: (s) => new SqlNavigation(s),
  features: (s) => new SqlFeatures(s),
  customActions: (s) => new SqlCustomActions(s),
  siteGroups: (s) => new SqlSiteGroups(s),
  roleDefinitions: (s) => new SqlRoleDefinitions(s),
  roleAssignments: (s) => new SqlRoleAssignments(s),
  subscriptions: (s) => new SqlSubscriptions(s),
  changes: (s) => new SqlChanges(s),
  sharingLinks: (s) => new SqlSharingLinks(s),
  hubSites: (s) => new SqlHubSites(s),
  siteScripts: (s) => new SqlSiteScripts(s),
  siteDesigns: (s) => new SqlSiteDesigns(s),
  formsFiles: (s) => new SqlFormsFiles(s),
  comments: (s) => new SqlComments(s),
  recycleBin: (s) => new SqlRecycleBin(s),
};

export function buildRepositories(session: SqlSession, memory: RepositoryMemory): Repositories {
  const out = {} as Record<keyof Repositories, unknown>;
  for (const name of Object.keys(REPOSITORIES) as Array<keyof Repositories>) out[name] = REPOSITORIES[name](session, memory);
  return out as Repositories;
}
