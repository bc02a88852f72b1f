// Navigation nodes on SQL. Read by navigation calls only, so not cached.

import type { NavigationMenu, NavigationNode } from '../../domain/navigation.ts';
import type { NavigationRepository, NewNavigationNode } from '../navigation.ts';
import { bool } from './rows.ts';
import type { SqlSession } from './session.ts';

function rowToNode(r: any): NavigationNode {
  return {
    id: Number(r.id), webId: String(r.web_id), menu: r.menu as NavigationMenu, parentId: r.parent_id == null ? null : Number(r.parent_id),
    title: String(r.title), url: String(r.url), visible: bool(r.visible), external: bool(r.external),
  };
}

export class SqlNavigation implements NavigationRepository {
  constructor(private readonly s: SqlSession) {}

  async children(webId: string, menu: NavigationMenu, parentId: number | null): Promise<NavigationNode[]> {
    let query = this.s.db.selectFrom('navigation_nodes').selectAll().where('web_id', '=', webId).where('menu', '=', menu);
    query = parentId === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', parentId);
    return (await query.orderBy('position').orderBy('id').execute()).map(rowToNode);
  }

  async all(webId: string, menu: NavigationMenu): Promise<NavigationNode[]> {
    const rows = (await this.s.db.selectFrom('navigation_nodes').selectAll().where('web_id', '=', webId).where('menu', '=', menu)
      .orderBy('position').orderBy('id').execute()).map(rowToNode);
    const out: NavigationNode[] = [];
    const visit = (parent: number | null) => { for (const n of rows.filter((r) => r.parentId === parent)) { out.push(n); visit(n.id); } };
    visit(null);
    return out;
  }

  async byId(webId: string, id: number): Promise<NavigationNode | undefined> {
    if (!Number.isSafeInteger(id)) return undefined;
    const row = await this.s.db.selectFrom('navigation_nodes').selectAll().where('web_id', '=', webId).where('id', '=', id).executeTakeFirst();
    return row ? rowToNode(row) : undefined;
  }

  add(webId: string, menu: NavigationMenu, parentId: number | null, node: NewNavigationNode): Promise<NavigationNode> {
    return this.s.transaction(async (s) => {
      let last = s.db.selectFrom('navigation_nodes').select((eb) => eb.fn.max('position').as('top')).where('web_id', '=', webId).where('menu', '=', menu);
      last = parentId === null ? last.where('parent_id', 'is', null) : last.where('parent_id', '=', parentId);
      const top = (await last.executeTakeFirst())?.top;
      const inserted = await s.db.insertInto('navigation_nodes').values({
        web_id: webId, menu, parent_id: parentId, position: top == null ? 0 : Number(top) + 1, title: node.title, url: node.url,
        visible: node.visible ? 1 : 0, external: node.external ? 1 : 0,
      }).returning('id').executeTakeFirstOrThrow();
      return { id: Number(inserted.id), webId, menu, parentId, ...node };
    });
  }

  update(webId: string, id: number, patch: Partial<NewNavigationNode>): Promise<NavigationNode | undefined> {
    const set: Record<string, unknown> = {};
    if (patch.title !== undefined) set.title = patch.title;
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.visible !== undefined) set.visible = patch.visible ? 1 : 0;
    if (patch.external !== undefined) set.external = patch.external ? 1 : 0;
    return this.s.transaction(async (s) => {
      if (Object.keys(set).length > 0) await s.db.updateTable('navigation_nodes').set(set).where('web_id', '=', webId).where('id', '=', id).execute();
      return new SqlNavigation(s).byId(webId, id);
    });
  }

  delete(webId: string, id: number): Promise<boolean> {
    return this.s.transaction(async (s) => {
      const node = await new SqlNavigation(s).byId(webId, id);
      if (!node) return false;
      const doomed = [id];
      for (let i = 0; i < doomed.length; i++) {
        const below = await s.db.selectFrom('navigation_nodes').select('id').where('web_id', '=', webId).where('parent_id', '=', doomed[i]!).execute();
        doomed.push(...below.map((r) => Number(r.id)));
      }
      await s.db.deleteFrom('navigation_nodes').where('web_id', '=', webId).where('id', 'in', doomed).execute();
      return true;
    });
  }

  moveAfter(webId: string, id: number, afterId: number): Promise<boolean> {
    return this.s.transaction(async (s) => {
      const here = new SqlNavigation(s);
      const node = await here.byId(webId, id);
      if (!node) return false;
      const siblings = (await here.children(webId, node.menu, node.parentId)).filter((n) => n.id !== id);
      const at = siblings.findIndex((n) => n.id === afterId);
      siblings.splice(at + 1, 0, node);
      for (const [position, n] of siblings.entries()) await s.db.updateTable('navigation_nodes').set({ position }).where('id', '=', n.id).execute();
      return true;
    });
  }

  async dropWeb(webId: string): Promise<void> {
    await this.s.db.deleteFrom('navigation_nodes').where('web_id', '=', webId).execute();
  }
}
