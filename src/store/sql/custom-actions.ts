// User custom actions on SQL. Read by their own calls only, so not cached.

import { sql } from 'kysely';
import type { CustomActionHolder, CustomActionRepository, StoredCustomAction } from '../custom-actions.ts';
import type { SqlSession } from './session.ts';

export const customActionHolderKey = (holder: CustomActionHolder) =>
  holder.kind === 'site' ? `site:${holder.siteId}` : holder.kind === 'web' ? `web:${holder.webId}` : `list:${holder.listRowId}`;

export class SqlCustomActions implements CustomActionRepository {
  constructor(private readonly s: SqlSession) {}

  async of(holder: CustomActionHolder): Promise<StoredCustomAction[]> {
    const rows = await this.s.db.selectFrom('user_custom_actions').select(['id', 'props']).where('holder', '=', customActionHolderKey(holder)).orderBy('position').execute();
    return rows.map((r) => ({ id: String(r.id), props: JSON.parse(String(r.props)) as Record<string, unknown> }));
  }

  async add(holder: CustomActionHolder, action: StoredCustomAction): Promise<void> {
    const key = customActionHolderKey(holder);
    await this.s.db.insertInto('user_custom_actions').values({
      holder: key, id: action.id, props: JSON.stringify(action.props),
      position: sql`(select coalesce(max(position), -1) + 1 from user_custom_actions where holder = ${key})`,
    }).execute();
  }

  update(holder: CustomActionHolder, id: string, props: Record<string, unknown>): Promise<boolean> {
    return this.s.transaction(async (s) => {
      const key = customActionHolderKey(holder);
      const row = await s.db.selectFrom('user_custom_actions').select('props').where('holder', '=', key).where('id', '=', id).executeTakeFirst();
      if (!row) return false;
      const merged = { ...(JSON.parse(String(row.props)) as Record<string, unknown>), ...props };
      await s.db.updateTable('user_custom_actions').set({ props: JSON.stringify(merged) }).where('holder', '=', key).where('id', '=', id).execute();
      return true;
    });
  }

  async delete(holder: CustomActionHolder, id: string): Promise<boolean> {
    const result = await this.s.db.deleteFrom('user_custom_actions').where('holder', '=', customActionHolderKey(holder)).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async clear(holder: CustomActionHolder): Promise<void> {
    await this.s.db.deleteFrom('user_custom_actions').where('holder', '=', customActionHolderKey(holder)).execute();
  }
}
