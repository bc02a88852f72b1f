// Item versions as SharePoint numbers them: major versions only (spemu lists have no minor
// versions), VersionId = 512 × the major number, label "<major>.0".

/** SharePoint's internal version ids step by 512 per major version (1.0 → 512, 2.0 → 1024). */
export const VERSION_ID_STEP = 512;

/** Major versions a list keeps while versioning is on (its MajorVersionLimit), the current one included. */
export const MAJOR_VERSION_LIMIT = 50;

export const versionId = (uiVersion: number): number => uiVersion * VERSION_ID_STEP;
export const versionLabel = (uiVersion: number): string => `${uiVersion}.0`;

/** The major version a VersionId names, or undefined when it names none (a minor version, or not a version id). */
export function uiVersionOf(id: number): number | undefined {
  return Number.isSafeInteger(id) && id > 0 && id % VERSION_ID_STEP === 0 ? id / VERSION_ID_STEP : undefined;
}
