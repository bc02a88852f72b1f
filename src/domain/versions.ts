// Item versions as SharePoint numbers them: a major number and, in a library with minor versions,
// a minor one (a draft), VersionId = 512 × major + minor, label "<major>.<minor>". Lists and
// libraries without minor versions only ever have minor 0.

import type { Item, List } from './model.ts';

/** SharePoint's internal version ids step by 512 per major version (1.0 → 512, 1.1 → 513, 2.0 → 1024). */
export const VERSION_ID_STEP = 512;

/** Major versions a list keeps while versioning is on (its MajorVersionLimit), the current one included. */
export const MAJOR_VERSION_LIMIT = 50;

export const versionId = (major: number, minor = 0): number => major * VERSION_ID_STEP + minor;
export const versionLabel = (major: number, minor = 0): string => `${major}.${minor}`;

/** Whether a list's writes make minor versions (drafts): versioning on, and minor versions too (libraries only). */
export const makesMinorVersions = (list: Pick<List, 'enableVersioning' | 'enableMinorVersions'>): boolean => list.enableVersioning && list.enableMinorVersions;

/** An item's (or a past version's) VersionId and label. */
export const versionIdOf = (item: Pick<Item, 'uiVersion' | 'minorVersion'>): number => versionId(item.uiVersion, item.minorVersion);
export const versionLabelOf = (item: Pick<Item, 'uiVersion' | 'minorVersion'>): string => versionLabel(item.uiVersion, item.minorVersion);

/** Whether a number can be a VersionId (0.1 is the first there is). */
export const isVersionId = (id: number): boolean => Number.isSafeInteger(id) && id > 0;

/** The VersionId a label (`2.0`, `0.3`) names, or undefined if it is no label. */
export function versionIdOfLabel(label: string): number | undefined {
  const m = /^(\d+)\.(\d+)$/.exec(label.trim());
  if (!m) return undefined;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return minor < VERSION_ID_STEP && (major > 0 || minor > 0) ? versionId(major, minor) : undefined;
}
