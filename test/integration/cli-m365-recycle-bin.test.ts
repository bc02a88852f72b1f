// CLI for Microsoft 365's `spo site recyclebinitem` commands (list, move, restore, remove, clear;
// unmodified) against spemu's recycle bin: the requests they send (site/RecycleBin with
// `$filter`, MoveAllToSecondStage with ids, RestoreByIds, DeleteByIds, DeleteAll) do what they
// say, checked through REST. Each command once: the CLI takes seconds to start.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { restAs, useM365 } from '../helpers/m365-cli.ts';

const ALICE = 'alice@contoso.onmicrosoft.com';

describe('CLI for Microsoft 365: spo site recyclebinitem list|move|restore|remove|clear', () => {
  const cli = useM365(ALICE);
  const site = () => cli.server.site('/sites/dev');

  /** A REST call as Alice, to act and check independently of the CLI. */
  const rest = (path: string, init: { method?: string; body?: object } = {}) => restAs(cli, site(), ALICE, 'alice-demo-pass', path, init);
  const recycled = async (title: string): Promise<{ id: number; bin: string }> => {
    const id = (await rest("web/lists/getbytitle('Tasks')/items", { method: 'POST', body: { Title: title } })).json().Id as number;
    return { id, bin: (await rest(`web/lists/getbytitle('Tasks')/items(${id})/recycle()`, { method: 'POST' })).json().value as string };
  };
  const state = async (bin: string) => {
    const r = await rest(`site/RecycleBin('${bin}')`);
    return r.status === 404 ? 'gone' : r.json().ItemState as number;
  };

  it('list (by type), move (by ids), restore (by ids), remove (by ids), clear', async () => {
    const a = await recycled('cli a');
    const b = await recycled('cli b');
    const c = await recycled('cli c');

    const listed = await cli.m365('spo', 'site', 'recyclebinitem', 'list', '--siteUrl', site(), '--type', 'listItems') as Array<{ Id: string; ItemType: number; Title: string }>;
    assert.deepEqual(listed.filter((e) => e.Title.startsWith('cli ')).map((e) => e.Title).sort(), ['cli a', 'cli b', 'cli c']);
    assert.ok(listed.every((e) => e.ItemType === 3));

    await cli.m365('spo', 'site', 'recyclebinitem', 'move', '--siteUrl', site(), '--ids', a.bin, '--force');
    assert.deepEqual([await state(a.bin), await state(b.bin)], [2, 1], 'only the item named moved');

    await cli.m365('spo', 'site', 'recyclebinitem', 'restore', '--siteUrl', site(), '--ids', `${a.bin},${b.bin}`);
    assert.equal((await rest(`web/lists/getbytitle('Tasks')/items(${a.id})?$select=Title`)).json().Title, 'cli a');
    assert.equal((await rest(`web/lists/getbytitle('Tasks')/items(${b.id})?$select=Title`)).json().Title, 'cli b');

    await cli.m365('spo', 'site', 'recyclebinitem', 'remove', '--siteUrl', site(), '--ids', c.bin, '--force');
    assert.equal(await state(c.bin), 'gone');

    const d = await recycled('cli d');
    await cli.m365('spo', 'site', 'recyclebinitem', 'clear', '--siteUrl', site(), '--force');
    assert.equal(await state(d.bin), 'gone');
  });
});
