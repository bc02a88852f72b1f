// Versioned schema migrations, applied at start. Each file under migrations/ is one
// version; Kysely records applied versions and takes a lock while it runs them (on
// PostgreSQL an advisory lock, so instances starting together on one fresh database apply
// each migration once: the others wait, then find nothing left to do).

import { Migrator, type Migration, type Kysely } from 'kysely';
import { initial } from './migrations/0001-initial.ts';
import { directory } from './migrations/0002-directory.ts';
import { metadataVersion } from './migrations/0003-metadata-version.ts';
import { projectData } from './migrations/0004-projectdata.ts';
import { itemVersions } from './migrations/0005-item-versions.ts';
import { indexNullsFirst } from './migrations/0006-index-nulls-first.ts';
import { cacheChanges } from './migrations/0007-cache-changes.ts';
import { blobs } from './migrations/0008-blobs.ts';
import { documents } from './migrations/0009-documents.ts';
import { itemGuidIndex } from './migrations/0010-item-guid-index.ts';
import { uploadSessions } from './migrations/0011-upload-sessions.ts';
import { attachments } from './migrations/0012-attachments.ts';
import { listModeration } from './migrations/0013-list-moderation.ts';
import { minorVersions } from './migrations/0014-minor-versions.ts';
import { siteColumns } from './migrations/0015-site-columns.ts';
import { views } from './migrations/0017-views.ts';
import { navigation } from './migrations/0018-navigation.ts';
import { features } from './migrations/0019-features.ts';
import { userCustomActions } from './migrations/0020-user-custom-actions.ts';
import { siteGroups } from './migrations/0021-site-groups.ts';
import { contentTypes } from './migrations/0016-content-types.ts';
import { uploadBytes } from './migrations/0022-upload-bytes.ts';
import { roleDefinitions } from './migrations/0023-role-definitions.ts';
import { roleAssignments } from './migrations/0024-role-assignments.ts';
import { changeLog } from './migrations/0025-change-log.ts';
import { webhooks } from './migrations/0026-webhooks.ts';
import { principalIds } from './migrations/0028-principal-ids.ts';
import { sharingLinks } from './migrations/0029-sharing-links.ts';
import { webPartGallery } from './migrations/0030-web-part-gallery.ts';
import { attachmentVersions } from './migrations/0031-attachment-versions.ts';
import { hubSites } from './migrations/0032-hub-sites.ts';
import { siteScripts } from './migrations/0034-site-scripts.ts';
import { columnDefaults } from './migrations/0035-column-defaults.ts';
import { comments } from './migrations/0036-comments.ts';
import { itemLikes } from './migrations/0037-item-likes.ts';
import { siteLogo } from './migrations/0038-site-logo.ts';
import { recycleBin } from './migrations/0040-recycle-bin.ts';
import { hubJoinsSiteDesigns } from './migrations/0041-hub-joins-site-designs.ts';
import { webProperties } from './migrations/0043-web-properties.ts';
import { ratingExperience } from './migrations/0042-rating-experience.ts';
import type { SqlFlavour } from './flavour.ts';

/** Every migration, by name (Kysely applies them in name order); exported for `spemu migrate` and import. */
export const migrations = (flavour: SqlFlavour): Record<string, Migration> => ({
  '0001-initial': initial(flavour),
  '0002-directory': directory(flavour),
  '0003-metadata-version': metadataVersion(flavour),
  '0004-projectdata': projectData,
  '0005-item-versions': itemVersions(flavour),
  '0006-index-nulls-first': indexNullsFirst(flavour),
  '0007-cache-changes': cacheChanges(flavour),
  '0008-blobs': blobs(flavour),
  '0009-documents': documents(flavour),
  '0010-item-guid-index': itemGuidIndex(flavour),
  '0011-upload-sessions': uploadSessions(flavour),
  '0012-attachments': attachments(flavour),
  '0013-list-moderation': listModeration(flavour),
  '0014-minor-versions': minorVersions(flavour),
  '0015-site-columns': siteColumns(flavour),
  '0016-content-types': contentTypes(flavour),
  '0017-views': views(flavour),
  '0018-navigation': navigation(flavour),
  '0019-features': features(flavour),
  '0020-user-custom-actions': userCustomActions(flavour),
  '0021-site-groups': siteGroups(flavour),
  '0022-upload-bytes': uploadBytes(),
  '0023-role-definitions': roleDefinitions(flavour),
  '0024-role-assignments': roleAssignments(flavour),
  '0025-change-log': changeLog(flavour),
  '0026-webhooks': webhooks(flavour),
  '0028-principal-ids': principalIds(flavour),
  '0029-sharing-links': sharingLinks(flavour),
  '0030-web-part-gallery': webPartGallery(),
  '0031-attachment-versions': attachmentVersions(flavour),
  '0032-hub-sites': hubSites(flavour),
  '0034-site-scripts': siteScripts(flavour),
  '0035-column-defaults': columnDefaults(flavour),
  '0036-comments': comments(flavour),
  '0037-item-likes': itemLikes(flavour),
  '0038-site-logo': siteLogo(),
  '0040-recycle-bin': recycleBin(flavour),
  '0041-hub-joins-site-designs': hubJoinsSiteDesigns(flavour),
  '0042-rating-experience': ratingExperience(),
  '0043-web-properties': webProperties(),
});

export async function migrateToLatest(db: Kysely<any>, flavour: SqlFlavour): Promise<void> {
  // Numbers are given out before the work merges (0029 was applied before 0028 existed), so a
  // migration that sorts before one already applied still runs, later; each checks what it needs.
  const migrator = new Migrator({ db, allowUnorderedMigrations: true, provider: { getMigrations: async () => migrations(flavour) } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? 'unknown');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
}
