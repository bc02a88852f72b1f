// List views on SQL. Read only by the calls about views (not on every request), so not
// cached. Each write is one transaction under the list's lock, so that "one default view per
// list" holds whoever writes at once.

import { randomUUID } from 'node:crypto';
import type { List } from '../../domain/model.ts';
import type { NewView, View, ViewPatch } from '../../domain/views.ts';
import type { ViewRepository } from '../views.ts';
import { bool } from './rows.ts';
import { SqlLists } from './lists.ts';
import type { SqlSession } from './session.ts';

function rowToView(r: any): View {
  return {
    id: String(r.id), listRowId: Number(r.list_row_id), title: String(r.title), serverRelativeUrl: String(r.url),
    defaultView: bool(r.default_view), hidden: bool(r.hidden), personal: bool(r.personal), rowLimit: Number(r.row_limit),
    paged: bool(r.paged), scope: Number(r.scope), query: String(r.query), fields: JSON.parse(String(r.fields)) as string[],
  };
}

const flag = (v: boolean) => (v ? 1 : 0);

export class SqlViews implements ViewRepository {
  constructor(private readonly s: SqlSession) {}

  async of(list: List): Promise<View[]> {
    const rows = await this.s.db.selectFrom('views').selectAll().where('list_row_id', '=', list.rowId)
      .orderBy('default_view', 'desc').orderBy('position').execute();
    return rows.map(rowToView);
  }

  create(list: List, view: NewView): Promise<View> {
    return this.s.transaction(async (s) => {
      await new SqlLists(s).lock(list);
      const last = await s.db.selectFrom('views').select((eb) => eb.fn.max('position').as('top')).where('list_row_id', '=', list.rowId).executeTakeFirst();
      if (view.defaultView) await s.db.updateTable('views').set({ default_view: 0 }).where('list_row_id', '=', list.rowId).execute();
      const id = randomUUID();
      await s.db.insertInto('views').values({
        id, list_row_id: list.rowId, position: Number(last?.top ?? -1) + 1, title: view.title, url: view.serverRelativeUrl,
        default_view: flag(view.defaultView), hidden: flag(view.hidden), personal: flag(view.personal), row_limit: view.rowLimit,
        paged: flag(view.paged), scope: view.scope, query: view.query, fields: JSON.stringify(view.fields),
      }).execute();
      return { id, listRowId: list.rowId, ...view };
    });
  }

  update(list: List, id: string, patch: ViewPatch): Promise<View | undefined> {
    const set: Record<string, unknown> = {};
    if (patch.title !== undefined) set.title = patch.title;
    if (patch.defaultView !== undefined) set.default_view = flag(patch.defaultView);
    if (patch.hidden !== undefined) set.hidden = flag(patch.hidden);
    if (patch.rowLimit !== undefined) set.row_limit = patch.rowLimit;
    if (patch.paged !== undefined) set.paged = flag(patch.paged);
    if (patch.scope !== undefined) set.scope = patch.scope;
    if (patch.query !== undefined) set.query = patch.query;
    if (patch.fields !== undefined) set.fields = JSON.stringify(patch.fields);
    return this.s.transaction(async (s) => {
      await new SqlLists(s).lock(list);
      if (patch.defaultView) await s.db.updateTable('views').set({ default_view: 0 }).where('list_row_id', '=', list.rowId).execute();
      if (Object.keys(set).length > 0) await s.db.updateTable('views').set(set).where('list_row_id', '=', list.rowId).where('id', '=', id).execute();
      const row = await s.db.selectFrom('views').selectAll().where('list_row_id', '=', list.rowId).where('id', '=', id).executeTakeFirst();
      return row ? rowToView(row) : undefined;
    });
  }

  async delete(list: List, id: string): Promise<boolean> {
    const result = await this.s.db.deleteFrom('views').where('list_row_id', '=', list.rowId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
