// Constants for wire-level tests: the Accept header of each dialect, and the GUID form.

export const ACCEPT = {
  verbose: 'application/json;odata=verbose',
  minimal: 'application/json;odata=minimalmetadata',
  plain: 'application/json',
  nometadata: 'application/json;odata=nometadata',
  v4minimal: 'application/json;odata.metadata=minimal',
  v4none: 'application/json;odata.metadata=none',
  v4full: 'application/json;odata.metadata=full',
} as const;

/** A lower-case GUID as SharePoint writes ids. */
export const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
