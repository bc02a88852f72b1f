// A stable GUID for something SharePoint gives an id that spemu does not store (a library's
// Forms folder, the column-defaults receiver): a version-5-shaped GUID of a SHA-1 of `name`, the
// same on every request and every instance. (folders.ts and list-forms.ts derive theirs the same way.)

import { createHash } from 'node:crypto';

export function nameBasedGuid(name: string): string {
  const h = createHash('sha1').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
