// The rating fields of a list with rating settings (domain/ratings.ts) on SQL. Their values are
// derived from `item_ratings` and `item_likes` and kept in the item's own columns: written by
// the rating or like write itself, in its unit of work, so a read of an item (and its `$filter`
// and `$orderby`) costs nothing more than any column's (docs/architecture.md, "Derived columns").

import type { Field, List, NewField } from '../../domain/model.ts';
import { RATING_FIELD_IDS, ratingValues, type RatingExperience, type RatingFieldName } from '../../domain/ratings.ts';
import { SqlFields } from './fields.ts';
import { listEntry, principalsOf, SqlLists } from './lists.ts';
import type { SqlSession } from './session.ts';

const NAME_BY_ID = new Map<string, RatingFieldName>(Object.entries(RATING_FIELD_IDS).map(([name, id]) => [id, name as RatingFieldName]));

/** The list's rating fields (known by their ids, whoever added them), with the value each holds. */
function ratingFieldsOf(fields: readonly Field[]): Array<{ field: Field; name: RatingFieldName }> {
  const out: Array<{ field: Field; name: RatingFieldName }> = [];
  for (const field of fields) {
    const name = NAME_BY_ID.get(field.id.toLowerCase());
    if (name && !field.builtIn) out.push({ field, name });
  }
  return out;
}

/**
 * Writes the item's rating field values from its ratings and likes, in the caller's unit of
 * work (after its rating or like changed). A list without rating fields: nothing, one query.
 */
export async function refreshRatingValues(s: SqlSession, list: List, itemId: number): Promise<void> {
  const targets = ratingFieldsOf(await new SqlFields(s).of(list));
  if (targets.length === 0) return;
  await writeRatingValues(s, list, targets, itemId);
}

async function writeRatingValues(s: SqlSession, list: List, targets: ReturnType<typeof ratingFieldsOf>, itemId: number): Promise<void> {
  const ratings = await s.db.selectFrom('item_ratings').select(['user_id', 'rating'])
    .where('list_row_id', '=', list.rowId).where('item_id', '=', itemId).orderBy('rated').orderBy('user_id').execute();
  const likes = await s.db.selectFrom('item_likes').select('user_id')
    .where('list_row_id', '=', list.rowId).where('item_id', '=', itemId).orderBy('created').orderBy('user_id').execute();
  const values = ratingValues(
    ratings.map((r) => ({ userId: Number(r.user_id), rating: Number(r.rating) })),
    likes.map((l) => ({ userId: Number(l.user_id) })),
  );
  const set: Record<string, unknown> = {};
  for (const { field, name } of targets) set[field.column] = values[name];
  await s.db.updateTable(list.tableName).set(set).where('id', '=', itemId).execute();
}

/**
 * Turns the list's rating settings to `experience`: in one unit of work, the setting, the six
 * rating fields it lacks (turning them off keeps them, as SharePoint does), and the values of
 * every item already rated or liked. Answers the list as it now is.
 */
export async function setRatingExperience(session: SqlSession, list: List, experience: RatingExperience, fields: readonly NewField[]): Promise<List> {
  const updated = await session.metadataWrite([['fields', String(list.rowId)], listEntry(list), ...principalsOf(list)], async (s) => {
    await new SqlLists(s).lock(list);
    await s.db.updateTable('lists').set({ rating_experience: experience }).where('row_id', '=', list.rowId).execute();
    await new SqlLists(s).touch(list);
    if (experience !== '') {
      const have = new Set((await new SqlFields(s).of(list)).map((f) => f.id.toLowerCase()));
      const names = new Set((await new SqlFields(s).of(list)).map((f) => f.internalName.toLowerCase()));
      for (const field of fields) {
        if (have.has(field.id!.toLowerCase())) continue;
        // A list column of that name that is not the rating field: SharePoint would number the new one; spemu refuses (never half done).
        if (names.has(field.internalName.toLowerCase())) throw new Error(`the list already has a field named ${field.internalName}`);
        await new SqlFields(s).add(list, field);
      }
      const targets = ratingFieldsOf(await new SqlFields(s).of(list));
      const rated = await s.db.selectFrom('item_ratings').select('item_id').where('list_row_id', '=', list.rowId)
        .union(s.db.selectFrom('item_likes').select('item_id').where('list_row_id', '=', list.rowId)).execute();
      for (const { item_id } of rated) await writeRatingValues(s, list, targets, Number(item_id));
    }
    return (await new SqlLists(s).byRowId(list.rowId))!;
  });
  session.schemaChanged();
  return updated;
}

/** How many comments (replies included) each of `itemIds` has; an item with none is absent. */
export async function commentCounts(s: SqlSession, list: List, itemIds: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (itemIds.length === 0) return counts;
  const rows = await s.db.selectFrom('item_comments').select(['item_id', (eb) => eb.fn.countAll().as('n')])
    .where('list_row_id', '=', list.rowId).where('item_id', 'in', [...new Set(itemIds)]).groupBy('item_id').execute();
  for (const r of rows) counts.set(Number(r.item_id), Number(r.n));
  return counts;
}
