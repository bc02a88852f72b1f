// The condition item queries get where folders have unique permissions (item-visibility.ts)
// must say what the permission chain says: an item's own scope, else the nearest folder with
// unique permissions holding it, else the list. Checked over generated folder trees against a
// walk up the chain written here, with a small evaluator of the few shapes the condition uses
// (the SQL compiler that runs it is exercised by test/integration/pnp-folder-permissions.test.ts).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { visibleCondition } from '../../src/fronts/rest/api/item-visibility.ts';
import { isVisible, type ItemVisibility } from '../../src/identity/effective-permissions.ts';
import type { Expression } from '../../src/query/ast.ts';
import type { List } from '../../src/domain/model.ts';

const LIST_URL = '/sites/dev/Docs';
const list = { serverRelativeUrl: LIST_URL } as List;

interface Row { id: number; dir: string }

/** `dir` as FileDirRef holds it: the list's URL, then the folder. */
const fileDirRef = (dir: string) => (dir ? `${LIST_URL}/${dir}` : LIST_URL);

function evaluate(e: Expression, row: Row): boolean {
  switch (e.kind) {
    case 'logical': return e.op === 'and' ? evaluate(e.left, row) && evaluate(e.right, row) : evaluate(e.left, row) || evaluate(e.right, row);
    case 'not': return !evaluate(e.operand, row);
    case 'compare': {
      assert.equal(e.op, 'eq');
      assert.equal(e.left.kind, 'member');
      const member = (e.left as { path: string[] }).path[0];
      const right = e.right as { value: string | number };
      if (member === 'ID') return row.id === right.value;
      assert.equal(member, 'FileDirRef');
      return fileDirRef(row.dir).toLowerCase() === String(right.value).toLowerCase();
    }
    case 'call': {
      assert.equal(e.name, 'startswith');
      const prefix = (e.args[1] as { value: string }).value.toLowerCase();
      return fileDirRef(row.dir).toLowerCase().startsWith(prefix);
    }
    default: throw new Error(`unexpected ${e.kind}`);
  }
}

/** A deterministic generator (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the visibility condition of item queries with folder scopes', () => {
  it('agrees with the permission chain on generated folder trees', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
      // A tree of folders (names that share prefixes: `A` and `AB` are not inside each other).
      const folders: Array<{ id: number; path: string }> = [];
      let id = 1;
      for (let i = 0; i < 8; i++) {
        const parent = next() < 0.3 || folders.length === 0 ? '' : pick(folders).path;
        const name = pick(['A', 'AB', 'b', 'B c']);
        const path = parent ? `${parent}/${name}` : name;
        if (!folders.some((f) => f.path.toLowerCase() === path.toLowerCase())) folders.push({ id: id++, path });
      }
      const dirOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
      const rows: Row[] = folders.map((f) => ({ id: f.id, dir: dirOf(f.path) }));
      for (let i = 0; i < 12; i++) rows.push({ id: id++, dir: next() < 0.2 ? '' : pick(folders).path });
      // Some items and folders with unique permissions, each viewable or not; the list too.
      const unique = new Map<number, boolean>();
      for (const row of rows) if (next() < 0.35) unique.set(row.id, next() < 0.5);
      const rule: ItemVisibility = {
        inherited: next() < 0.5,
        visibleIds: [...unique].filter(([, v]) => v).map(([k]) => k),
        hiddenIds: [...unique].filter(([, v]) => !v).map(([k]) => k),
        folders: folders.filter((f) => unique.has(f.id)).map((f) => ({ ...f, visible: unique.get(f.id)! })),
      };
      // The chain, walked: the item's own scope, then each folder up from where it is, then the list.
      const byPath = new Map(folders.map((f) => [f.path.toLowerCase(), f.id]));
      const expected = (row: Row): boolean => {
        if (unique.has(row.id)) return unique.get(row.id)!;
        for (let dir = row.dir; dir !== ''; dir = dirOf(dir)) {
          const folder = byPath.get(dir.toLowerCase());
          if (folder !== undefined && unique.has(folder)) return unique.get(folder)!;
        }
        return rule.inherited;
      };
      const condition = visibleCondition(rule, list);
      for (const row of rows) {
        const want = expected(row);
        assert.equal(condition ? evaluate(condition, row) : true, want, `seed ${seed}, item ${row.id} in '${row.dir}': the condition`);
        assert.equal(isVisible(rule, row.id, row.dir), want, `seed ${seed}, item ${row.id} in '${row.dir}': isVisible`);
      }
    }
  });
});
