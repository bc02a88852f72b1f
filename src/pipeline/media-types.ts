// The Content-Type a file is served with, from its name's extension, and which types a
// browser would run as a page of the site's origin. SharePoint Online serves the latter as
// downloads only (its "strict" browser file handling, the only mode left since 2018), so
// script a contributor uploads in an .html or .svg never runs as another user's session.

import { fileType } from '../domain/documents.ts';

const BY_EXTENSION: Readonly<Record<string, string>> = {
  txt: 'text/plain', md: 'text/markdown', csv: 'text/csv', css: 'text/css', js: 'text/javascript',
  json: 'application/json', xml: 'application/xml', htm: 'text/html', html: 'text/html', xhtml: 'application/xhtml+xml',
  pdf: 'application/pdf', zip: 'application/zip', mp4: 'video/mp4',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml',
  doc: 'application/msword', xls: 'application/vnd.ms-excel', ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** What anything else is served as. */
export const OCTET_STREAM = 'application/octet-stream';

/** The Content-Type of a file named `name`. */
export const mediaTypeOf = (name: string): string => BY_EXTENSION[fileType(name).toLowerCase()] ?? OCTET_STREAM;

/**
 * Types a browser renders as a document that can run script (HTML, XHTML, SVG, and XML, which
 * may carry XHTML or an XSLT stylesheet): never served inline.
 */
const ACTIVE = new Set(['text/html', 'application/xhtml+xml', 'image/svg+xml', 'application/xml']);

export const isActiveContent = (mediaType: string): boolean => ACTIVE.has(mediaType);
