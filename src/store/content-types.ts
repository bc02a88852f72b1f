// Content types defined in a web or bound to a list (the built-in ones are constants: domain/content-types.ts).

import type { ContentType } from '../domain/content-types.ts';

export type ContentTypeScope = { kind: 'web'; webId: string } | { kind: 'list'; listRowId: number };
export type ContentTypePatch = Partial<Pick<ContentType, 'name' | 'description' | 'group' | 'hidden' | 'readOnly' | 'sealed' | 'fieldLinks'>>;

export interface ContentTypeRepository {
  /** A web's or a list's own content types, in the order they were added. */
  of(scope: ContentTypeScope): Promise<ContentType[]>;
  /** False if the scope has one of that id already. */
  add(scope: ContentTypeScope, type: Omit<ContentType, 'scope'>): Promise<boolean>;
  update(scope: ContentTypeScope, id: string, patch: ContentTypePatch): Promise<ContentType | undefined>;
  delete(scope: ContentTypeScope, id: string): Promise<boolean>;
  /** Every content type of a list or of a web and its lists (the list or web is deleted). */
  dropScope(scope: ContentTypeScope): Promise<void>;
}
