// A folder addressed by URL (`GetFolderByServerRelativeUrl`, `…Path`) that is not there. SharePoint
// resolves such a folder lazily: reading it, or anything below it, is 404 FileNotFoundException
// "File Not Found.", but adding a file to its Files is 404 `-2147024893,
// System.IO.DirectoryNotFoundException` — the answer spsave reads to create the missing folders and
// upload again (docs/compatibility.md, "Forms login and node-sp-auth clients").

import { fail } from '../../../../domain/errors.ts';
import { errors } from '../../../../wire/errors.ts';
import type { MethodDef, ResourceOf, ResourceType } from '../resource.ts';
import { folderType } from './folders.ts';
import { filesType } from './files.ts';

type MissingFolder = ResourceOf<'missingFolder'>;
type MissingFolderFiles = ResourceOf<'missingFolderFiles'>;

const gone = async (r: { url: string }): Promise<never> => { throw fail.folderNotFound(r.url); };

/** Every method a folder (or its files) has, as a function that answers the folder's 404 while the path is resolved. */
function missingMethods<R extends MissingFolder | MissingFolderFiles>(names: string[]): Record<string, MethodDef<R>> {
  return Object.fromEntries(names.map((name) => [name, { kind: 'function', invoke: (r: R) => gone(r) } satisfies MethodDef<R>]));
}

export const missingFolderType: ResourceType<MissingFolder> = {
  // The verbs a folder answers answer the folder's 404, after the permission a folder's would need.
  permissions: { update: 'EditListItems', delete: 'DeleteListItems' },
  navigation: {
    ...Object.fromEntries(Object.keys(folderType.navigation ?? {}).map((name) => [name, gone])),
    files: async (r) => ({ kind: 'missingFolderFiles', url: r.url }),
  },
  methods: missingMethods(Object.keys(folderType.methods ?? {})),
  get: gone,
  update: gone,
  delete: gone,
  bodies: { update: 'none' },
};

/** Adding a file: DirectoryNotFoundException. */
const addToMissing: MethodDef<MissingFolderFiles> = {
  kind: 'action', permission: 'AddListItems', body: 'stream',
  invoke: async () => { throw errors.directoryNotFound(); },
};

export const missingFolderFilesType: ResourceType<MissingFolderFiles> = {
  key: gone,
  methods: { ...missingMethods(Object.keys(filesType.methods ?? {})), add: addToMissing, addusingpath: addToMissing },
  get: gone,
};
