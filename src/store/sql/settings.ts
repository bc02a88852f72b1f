// Settings on SQL: one row per key, cached.

import type { SettingsRepository } from '../settings.ts';
import type { SqlSession } from './session.ts';

export class SqlSettings implements SettingsRepository {
  constructor(private readonly s: SqlSession) {}

  get(key: string): Promise<string | undefined> {
    return this.s.cached('settings', key, async () => {
      const row = await this.s.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
      return row?.value as string | undefined;
    });
  }

  async set(key: string, value: string): Promise<void> {
    await this.s.metadataWrite([['settings', key]], (s) => s.db.insertInto('settings').values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute());
  }
}
