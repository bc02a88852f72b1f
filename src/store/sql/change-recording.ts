// The change log is written by the unit of work, not by each front or service: the store's
// write methods are wrapped here, once, so that every write through the Store — whatever
// protocol or service made it — records its change in the write's own transaction (a write
// that fails or rolls back leaves no change row). The table below says, per repository
// method, which change a successful call is; `before` reads what a delete will remove (its
// UniqueId) inside the same transaction.

import type { ChangeDraft, ChangeObjectKind, ChangeTypeNumber } from '../../domain/change-tokens.ts';
import { ChangeType } from '../../domain/change-tokens.ts';
import { placePath, splitPath } from '../../domain/documents.ts';
import type { Item, List, Web } from '../../domain/model.ts';
import { USER_INFO_LIST_TEMPLATE } from '../../domain/templates.ts';
import type { Repositories } from '../store.ts';
import type { Restored } from '../recycle-bin.ts';
import type { RepositoryMemory } from './repositories.ts';
import type { SqlSession } from './session.ts';
import { writeChanges } from './changes.ts';

type Repos = { [K in keyof Repositories]: Repositories[K] };
type AnyArgs = any[];

interface Rule {
  /** Read inside the transaction before the write (what a delete removes). */
  before?: (repos: Repos, args: AnyArgs) => Promise<unknown>;
  /** The changes a call that returned `result` made; none when it changed nothing. */
  after: (args: AnyArgs, result: any, before: any) => ChangeDraft[] | Promise<ChangeDraft[]>;
}

const { Navigation, Add, Update, DeleteObject, Restore, Rename, MoveAway, MoveInto, MemberAdd, MemberDelete, AssignmentAdd, AssignmentDelete, ScopeAdd, ScopeDelete, RoleAdd, RoleUpdate, RoleDelete } = ChangeType;

/** An item (a list item, a file, a folder) change: ChangeItem's ids and what it shows. */
export function itemChange(list: List, item: Pick<Item, 'id' | 'guid' | 'editorId' | 'contentTypeId' | 'place' | 'values'>, type: ChangeTypeNumber): ChangeDraft {
  // A row of the User Information List is a site user: SP.ChangeUser (the User flag).
  if (list.baseTemplate === USER_INFO_LIST_TEMPLATE) {
    return { kind: 'user', type, webId: list.webId, listId: list.id, itemId: item.id, uniqueId: item.guid, details: { userId: item.id } };
  }
  const path = item.place.name !== null ? placePath(item.place) : undefined;
  return {
    kind: item.place.folder ? 'folder' : list.baseType === 1 ? 'file' : 'item', type, webId: list.webId, listId: list.id, itemId: item.id, uniqueId: item.guid,
    details: {
      editorId: item.editorId, contentTypeId: item.contentTypeId,
      url: path === undefined ? null : `${list.serverRelativeUrl}/${path}`,
      title: typeof item.values.Title === 'string' ? item.values.Title : item.place.name,
      listTitle: list.title, listTemplate: list.baseTemplate, hidden: list.hidden,
    },
  };
}

const listChange = (list: List, type: ChangeTypeNumber, siteId?: string): ChangeDraft => ({
  kind: 'list', type, siteId, webId: list.webId, listId: list.id, uniqueId: list.id,
  details: { title: list.title, url: list.serverRelativeUrl, listTemplate: list.baseTemplate, hidden: list.hidden },
});
const webChange = (web: Web, type: ChangeTypeNumber): ChangeDraft => ({
  kind: 'web', type, siteId: web.siteId, webId: web.id, uniqueId: web.id, details: { title: web.title, url: web.serverRelativeUrl },
});
const listPart = (kind: ChangeObjectKind, list: List, id: string, type: ChangeTypeNumber, details?: ChangeDraft['details']): ChangeDraft =>
  ({ kind, type, webId: list.webId, listId: list.id, uniqueId: id, details });
const siteChange = (kind: ChangeObjectKind, siteId: string, type: ChangeTypeNumber, details: ChangeDraft['details']): ChangeDraft =>
  ({ kind, type, siteId, webId: '', details });
const one = (condition: unknown, draft: () => ChangeDraft): ChangeDraft[] => (condition ? [draft()] : []);

/** The file or folder at `path` in `list` (for a move or a folder delete: what it was). */
async function placed(repos: Repos, list: List, fields: unknown, path: string): Promise<Item | undefined> {
  const { dir, name } = splitPath(path);
  return name ? repos.documents.at(list, fields as never, dir, name) : undefined;
}

/** The securable object a role-assignment scope names (`web:<id>`, `list:<row>`, `item:<row>:<id>`). */
async function securable(repos: Repos, scope: string): Promise<{ kind: ChangeObjectKind; webId: string; list?: List; itemId?: number } | undefined> {
  const [kind, a, b] = scope.split(':');
  if (kind === 'web' && a) return { kind: 'web', webId: a };
  const list = a ? await repos.lists.byRowId(Number(a)) : undefined;
  if (!list) return undefined;
  return kind === 'item' ? { kind: 'item', webId: list.webId, list, itemId: Number(b) } : { kind: 'list', webId: list.webId, list };
}
const securableChange = (siteId: string, target: Awaited<ReturnType<typeof securable>>, type: ChangeTypeNumber, details: ChangeDraft['details']): ChangeDraft[] =>
  target ? [{ kind: target.kind, type, siteId, webId: target.webId, listId: target.list?.id, itemId: target.itemId, uniqueId: target.kind === 'web' ? target.webId : target.kind === 'list' ? target.list?.id : undefined, details }] : [];

const RULES: { [K in keyof Repositories]?: Record<string, Rule> } = {
  items: {
    create: { after: ([list], item: Item) => [itemChange(list, item, Add)] },
    // A bulk load (tenant files): recordBulk reads the new items' UniqueIds back, a page at a time.
    createMany: { after: () => [] },
    update: { after: ([list], result) => one(typeof result === 'object' && result, () => itemChange(list, result, Update)) },
    delete: {
      before: (repos, [list, fields, id]) => repos.items.get(list, fields, id),
      after: ([list], result, item: Item | undefined) => one(result === 'deleted' && item, () => itemChange(list, item!, DeleteObject)),
    },
    recycle: {
      before: (repos, [list, fields, id]) => repos.items.get(list, fields, id),
      after: ([list], result, item: Item | undefined) => one(result && item, () => itemChange(list, item!, DeleteObject)),
    },
  },
  documents: {
    createFolder: { after: ([list], item: Item) => [itemChange(list, item, Add)] },
    putFile: { after: ([list], r: { item: Item; created: boolean }) => [itemChange(list, r.item, r.created ? Add : Update)] },
    setCheckOut: {
      before: (repos, [list, id]) => repos.items.get(list, [], id),
      after: ([list], ok: boolean, item: Item | undefined) => one(ok && item, () => itemChange(list, item!, Update)),
    },
    setModeration: {
      before: (repos, [list, fields, target]) => (typeof target === 'number' ? repos.items.get(list, fields, target) : Promise.resolve(undefined)),
      after: ([list], rows: number, item: Item | undefined) => one(rows > 0 && item, () => itemChange(list, item!, Update)),
    },
    renumber: { after: ([list], item: Item | undefined) => one(item, () => itemChange(list, item!, Update)) },
    move: {
      before: (repos, [source, from]) => placed(repos, source.list, source.fields, from),
      after: ([source, , target], moved: Item | undefined, was: Item | undefined) => {
        if (!moved) return [];
        // Within a list the file or folder keeps its id and gets a new URL: a rename. To another
        // list it leaves one (MoveAway) and arrives in the other (MoveInto).
        if (source.list.rowId === target.list.rowId) return [itemChange(target.list, moved, Rename)];
        return [...(was ? [itemChange(source.list, was, MoveAway)] : []), itemChange(target.list, moved, MoveInto)];
      },
    },
    copy: { after: ([, , target], copy: Item | undefined) => one(copy, () => itemChange(target.list, copy!, Add)) },
    deleteFolder: {
      before: (repos, [list, fields, path]) => placed(repos, list, fields, path),
      after: ([list], removed: number, folder: Item | undefined) => one(removed > 0 && folder, () => itemChange(list, folder!, DeleteObject)),
    },
  },
  // An attachment added or removed is a change to its item (SharePoint's webhooks call it ItemAttachmentAdded/Deleted).
  attachments: {
    put: {
      before: (repos, [list, itemId]) => repos.items.get(list, [], itemId),
      // A refused save (`{ conflict }`) changed nothing.
      after: ([list], r, item: Item | undefined) => one(typeof r === 'object' && !('conflict' in r) && item, () => itemChange(list, item!, Update)),
    },
    delete: {
      before: (repos, [list, itemId]) => repos.items.get(list, [], itemId),
      after: ([list], gone: boolean, item: Item | undefined) => one(gone && item, () => itemChange(list, item!, Update)),
    },
  },
  // A recycled list is a deleted one; what a restore put back is restored (folders it had to make again are added).
  recycleBin: {
    recycleList: { after: ([list]) => [listChange(list, DeleteObject)] },
    restore: {
      after: (_args, r: Restored) => (r.listRestored ? [listChange(r.list, Restore)]
        : [...r.createdFolders.map((f) => itemChange(r.list, f, Add)), ...r.items.map((i) => itemChange(r.list, i, Restore))]),
    },
  },
  lists: {
    create: { after: ([web], list: List) => [listChange(list, Add, (web as Web).siteId)] },
    update: { after: (_args, list: List) => [listChange(list, Update)] },
    delete: { after: ([list]) => [listChange(list, DeleteObject)] },
  },
  fields: {
    add: { after: ([list], field) => [listPart('field', list, field.id, Add, { title: field.title, internalName: field.internalName })] },
    update: { after: ([list], field) => [listPart('field', list, field.id, Update, { title: field.title, internalName: field.internalName })] },
    delete: { after: ([list, field]) => [listPart('field', list, field.id, DeleteObject, { title: field.title, internalName: field.internalName })] },
  },
  siteColumns: {
    add: { after: ([web], column) => [{ kind: 'field', type: Add, siteId: web.siteId, webId: web.id, uniqueId: column.id, details: { title: column.title, internalName: column.internalName } }] },
    update: { after: (_args, column) => [{ kind: 'field', type: Update, webId: column.webId, uniqueId: column.id, details: { title: column.title, internalName: column.internalName } }] },
    delete: { after: ([column]) => [{ kind: 'field', type: DeleteObject, webId: column.webId, uniqueId: column.id, details: { title: column.title, internalName: column.internalName } }] },
  },
  views: {
    create: { after: ([list], view) => [listPart('view', list, view.id, Add, { title: view.title })] },
    update: { after: ([list], view) => one(view, () => listPart('view', list, view.id, Update, { title: view.title })) },
    delete: { after: ([list, id], gone: boolean) => one(gone, () => listPart('view', list, id, DeleteObject)) },
  },
  sites: {
    create: { after: (_args, r: { site: { id: string }; web: Web }) => [{ kind: 'site', type: Add, siteId: r.site.id, webId: r.web.id, uniqueId: r.site.id }] },
    createWeb: { after: (_args, web: Web) => [webChange(web, Add)] },
    updateWeb: { after: (_args, web: Web) => [webChange(web, Update)] },
    deleteWeb: { after: ([web]) => [webChange(web, DeleteObject)] },
  },
  contentTypes: {
    add: {
      before: (repos, [scope]) => (scope.kind === 'list' ? repos.lists.byRowId(scope.listRowId) : Promise.resolve(undefined)),
      after: ([scope, type], added: boolean, list: List | undefined) => one(added, () => contentTypeChange(scope, list, type.id, type.name, Add)),
    },
    update: {
      before: (repos, [scope]) => (scope.kind === 'list' ? repos.lists.byRowId(scope.listRowId) : Promise.resolve(undefined)),
      after: ([scope, id], type, list: List | undefined) => one(type, () => contentTypeChange(scope, list, id, type.name, Update)),
    },
    delete: {
      before: (repos, [scope]) => (scope.kind === 'list' ? repos.lists.byRowId(scope.listRowId) : Promise.resolve(undefined)),
      after: ([scope, id], gone: boolean, list: List | undefined) => one(gone, () => contentTypeChange(scope, list, id, null, DeleteObject)),
    },
  },
  siteGroups: {
    add: { after: ([siteId, group], added: boolean) => one(added, () => siteChange('group', siteId, Add, { groupId: group.id, title: group.title })) },
    update: { after: ([siteId, id], r) => one(typeof r === 'object' && r, () => siteChange('group', siteId, Update, { groupId: id, title: r.title })) },
    delete: { after: ([siteId, id], gone: boolean) => one(gone, () => siteChange('group', siteId, DeleteObject, { groupId: id })) },
    addMember: { after: ([siteId, groupId, userId]) => [siteChange('group', siteId, MemberAdd, { groupId, userId })] },
    removeMember: { after: ([siteId, groupId, userId], gone: boolean) => one(gone, () => siteChange('group', siteId, MemberDelete, { groupId, userId })) },
  },
  // The quick launch and top bar: a Navigation change of the web (the Navigation flag with Web).
  navigation: {
    add: { after: ([webId], node) => [{ kind: 'web', type: Navigation, webId, uniqueId: webId, details: { nodeId: node.id } }] },
    update: { after: ([webId, id], node) => one(node, () => ({ kind: 'web', type: Navigation, webId, uniqueId: webId, details: { nodeId: id } })) },
    delete: { after: ([webId, id], gone: boolean) => one(gone, () => ({ kind: 'web', type: Navigation, webId, uniqueId: webId, details: { nodeId: id } })) },
    moveAfter: { after: ([webId, id], moved: boolean) => one(moved, () => ({ kind: 'web', type: Navigation, webId, uniqueId: webId, details: { nodeId: id } })) },
  },
  roleDefinitions: {
    add: { after: ([siteId, definition], added: boolean) => one(added, () => siteChange('roleDefinition', siteId, RoleAdd, { roleDefinitionId: definition.id, name: definition.name })) },
    update: { after: ([siteId, id], r) => one(typeof r === 'object' && r, () => siteChange('roleDefinition', siteId, RoleUpdate, { roleDefinitionId: id, name: r.name })) },
    delete: { after: ([siteId, id], gone: boolean) => one(gone, () => siteChange('roleDefinition', siteId, RoleDelete, { roleDefinitionId: id })) },
  },
  roleAssignments: {
    breakInheritance: { before: (repos, [, scope]) => securable(repos, scope), after: ([siteId], _r, target) => securableChange(siteId, target, ScopeAdd, undefined) },
    resetInheritance: { before: (repos, [, scope]) => securable(repos, scope), after: ([siteId], _r, target) => securableChange(siteId, target, ScopeDelete, undefined) },
    add: {
      before: (repos, [, scope]) => securable(repos, scope),
      after: ([siteId, , row], _r, target) => securableChange(siteId, target, AssignmentAdd, { principalId: row.principalId, roleDefinitionId: row.roleDefinitionId }),
    },
    remove: {
      before: (repos, [, scope]) => securable(repos, scope),
      after: ([siteId, , principalId], gone: boolean, target) => (gone ? securableChange(siteId, target, AssignmentDelete, { principalId }) : []),
    },
  },
};

function contentTypeChange(scope: { kind: string; webId?: string }, list: List | undefined, id: string, name: string | null, type: ChangeTypeNumber): ChangeDraft {
  if (scope.kind === 'list' && list) return listPart('contentType', list, id, type, { name });
  return { kind: 'contentType', type, webId: scope.webId ?? '', uniqueId: id, details: { name } };
}

/**
 * Wraps the repositories of `session` so that each write the table names runs in a unit of
 * work (the open one, or its own) and records its change there. `build` makes a repository
 * over a transaction's session.
 */
export function recordingChanges(
  repos: Repositories, session: SqlSession, memory: RepositoryMemory,
  build: <K extends keyof Repositories>(name: K, session: SqlSession, memory: RepositoryMemory) => Repositories[K],
): Repositories {
  const out = { ...repos } as Record<string, unknown>;
  for (const [name, rules] of Object.entries(RULES) as Array<[keyof Repositories, Record<string, Rule>]>) {
    const original = repos[name] as unknown as Record<string, (...args: AnyArgs) => Promise<unknown>>;
    const wrapped = Object.create(original) as Record<string, unknown>;
    for (const [method, rule] of Object.entries(rules)) {
      if (typeof original[method] !== 'function') continue;
      wrapped[method] = (...args: AnyArgs) => session.transaction(async (tx) => {
        const inTx = (key: keyof Repositories) => (tx === session ? repos[key] : build(key, tx, memory));
        const here = new Proxy({} as Repos, { get: (_t, key) => inTx(key as keyof Repositories) });
        const target = inTx(name) as unknown as Record<string, (...a: AnyArgs) => Promise<unknown>>;
        const before = rule.before ? await rule.before(here, args) : undefined;
        const result = await target[method]!.apply(target, args);
        if (name === 'items' && method === 'createMany') await recordBulk(here, args, result as number, tx);
        else for (const draft of await rule.after(args, result, before)) tx.work!.recordChange(draft);
        return result;
      });
    }
    out[name] = wrapped;
  }
  return out as unknown as Repositories;
}

/**
 * items.createMany: an Add per new item, their UniqueIds read back a page at a time. A bulk load
 * may make millions: each page's changes are written at once (in the same transaction) rather
 * than held until the commit.
 */
async function recordBulk(repos: Repos, [list, fields, writes]: AnyArgs, firstId: number, tx: SqlSession): Promise<void> {
  const count = (writes as unknown[]).length;
  // What the unit of work recorded before (the list the load made, say) keeps its place in the order.
  const pending = (tx.work as unknown as { changeDrafts?: ChangeDraft[] }).changeDrafts;
  if (pending?.length) await writeChanges(tx, pending.splice(0));
  for (let start = 0; start < count; start += 1000) {
    const ids = Array.from({ length: Math.min(1000, count - start) }, (_, i) => firstId + start + i);
    const items = await repos.items.getMany(list, fields, ids);
    items.sort((a, b) => a.id - b.id);
    await writeChanges(tx, items.map((item) => itemChange(list, item, Add)));
  }
}
