// Names and paths SharePoint refuses, on the wire with plain fetch (issue #11): invalid
// characters, leading or trailing spaces, a trailing dot and a path over 400 characters, each
// on a file add, a folder add, a rename and a move. Every refusal is SharePoint's status,
// code and message, and the library is left as it was.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';

const LIB = '/sites/dev/Shared Documents';
const INVALID_NAME = { status: 400, code: '-2130575245, Microsoft.SharePoint.SPException',
  message: 'The file or folder name contains characters that are not permitted. Please use a different name.' };
const TOO_LONG = { status: 400, code: '-2147024690, System.IO.PathTooLongException',
  message: 'The specified file or folder name is too long. The URL path for all files and folders must be 400 characters or less'
    + ' (and no more than 255 characters for any single file or folder name in the URL). Please type a shorter file or folder name.' };
/** The characters SharePoint refuses in a name but `/`, which a URL or path always reads as a separator. */
const INVALID_CHARACTERS = ['"', '*', ':', '<', '>', '?', '\\', '|'];
/** `/sites/dev/Shared Documents/` is 28 characters: a name of 373 makes a 401-character path. */
const LONG_NAME = `${'n'.repeat(200)}/${'m'.repeat(168)}.txt`;

describe('refused names and paths on the wire', () => {
  const spemu = useTestServer();
  let site: string;

  before(async () => {
    site = spemu.server.site('/sites/dev');
    // What the renames and moves start from, and the folder the long paths go through.
    assert.equal((await post(`web/GetFolderByServerRelativePath(decodedurl='${q(LIB)}')/Files/AddUsingPath(decodedurl='source.txt',overwrite=true)`, 'source')).status, 200);
    assert.equal((await post(`web/GetFolderByServerRelativePath(decodedurl='${q(LIB)}')/Folders/AddUsingPath(decodedurl='Box')`)).status, 200);
    assert.equal((await post(`web/GetFolderByServerRelativePath(decodedurl='${q(LIB)}')/Folders/AddUsingPath(decodedurl='${'n'.repeat(200)}')`)).status, 200);
  });

  /** A string argument in a URL: quotes doubled, then percent-encoded. */
  const q = (text: string) => encodeURIComponent(text.replace(/'/g, "''"));
  async function post(path: string, body?: string | object, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
    const json = typeof body === 'object';
    const r = await fetch(`${site}/_api/${path}`, {
      method: 'POST', body: json ? JSON.stringify(body) : body,
      headers: { Accept: 'application/json;odata=nometadata', ...(json ? { 'Content-Type': 'application/json' } : {}), ...headers },
    });
    return { status: r.status, json: await r.json().catch(() => undefined) };
  }
  function assertRefused(r: { status: number; json: any }, expected: typeof INVALID_NAME, what: string): void {
    assert.deepEqual([r.status, r.json?.['odata.error']?.code, r.json?.['odata.error']?.message?.value],
      [expected.status, expected.code, expected.message], what);
  }
  /** Everything in the library, as server-relative URLs: what must not change. */
  async function contents(): Promise<string[]> {
    const r = await fetch(`${site}/_api/web/lists/getbytitle('Documents')/items?$select=FileRef&$top=5000`, { headers: { Accept: 'application/json;odata=nometadata' } });
    return ((await r.json()) as { value: Array<{ FileRef: string }> }).value.map((i) => i.FileRef).sort();
  }

  /** The four writes, each naming its new file or folder `name` (a name, or a path below the library for LONG_NAME). */
  const writes: Array<[string, (name: string) => Promise<{ status: number; json: any }>]> = [
    ['file add', (name) => post(`web/GetFolderByServerRelativePath(decodedurl='${q(LIB)}')/Files/AddUsingPath(decodedurl='${q(name)}')`, 'bytes')],
    ['folder add', (name) => post(`web/GetFolderByServerRelativePath(decodedurl='${q(LIB)}')/Folders/AddUsingPath(decodedurl='${q(name)}')`)],
    ['folder rename', (name) => post(`web/GetFolderByServerRelativePath(decodedurl='${q(`${LIB}/Box`)}')`, { Name: name }, { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' })],
    ['file move', (name) => post('SP.MoveCopyUtil.MoveFileByPath()', {
      srcPath: { DecodedUrl: `${LIB}/source.txt` }, destPath: { DecodedUrl: `${LIB}/${name}` }, options: { KeepBoth: false } })],
  ];

  it('a character SharePoint refuses, on each write: 400 and nothing written', async () => {
    const before = await contents();
    for (const [what, write] of writes) {
      // A folder's new Name is no path: `/` is refused there as the other characters are.
      const characters = what === 'folder rename' ? [...INVALID_CHARACTERS, '/'] : INVALID_CHARACTERS;
      for (const c of characters) assertRefused(await write(`bad${c}name.txt`), INVALID_NAME, `${what} with ${c}`);
    }
    assert.deepEqual(await contents(), before);
  });

  it('`/` in a URL or a path is a separator, never part of a name: the folder it names is not there (404)', async () => {
    const before = await contents();
    for (const [what, write] of writes.filter(([w]) => w !== 'folder rename')) {
      const r = await write('nowhere/file.txt');
      assert.equal(r.status, 404, what);
      assert.equal(r.json['odata.error'].code, '-2147024894, System.IO.FileNotFoundException', what);
    }
    assert.deepEqual(await contents(), before);
  });

  it('a leading or trailing space, or a trailing dot, on each write: 400 and nothing written', async () => {
    const before = await contents();
    for (const [what, write] of writes) {
      for (const name of [' lead.txt', 'trail.txt ', 'dot.txt.']) assertRefused(await write(name), INVALID_NAME, `${what} of '${name}'`);
    }
    assert.deepEqual(await contents(), before);
  });

  it('a decoded path over 400 characters, on each write: PathTooLongException and nothing written', async () => {
    assert.equal(`${LIB}/${LONG_NAME}`.length, 401);
    const before = await contents();
    for (const [what, write] of writes) {
      // A rename keeps its folder: its one name (at most 255) cannot reach 400, so it renames a folder that holds a long name.
      if (what === 'folder rename') continue;
      assertRefused(await write(LONG_NAME), TOO_LONG, what);
    }
    // The rename: Box holds a file whose path fits now and would not under a longer name.
    const inside = `${'i'.repeat(200)}.txt`;
    assert.equal((await post(`web/GetFolderByServerRelativePath(decodedurl='${q(`${LIB}/Box`)}')/Files/AddUsingPath(decodedurl='${q(inside)}')`, 'x')).status, 200);
    const withInside = await contents();
    assertRefused(await writes[2]![1]('b'.repeat(170)), TOO_LONG, 'folder rename');
    assert.deepEqual(await contents(), withInside);
    assert.deepEqual(withInside.filter((u) => !before.includes(u)), [`${LIB}/Box/${inside}`]);
    // 400 exactly is allowed.
    const fits = LONG_NAME.slice(0, -5) + '.txt';
    assert.equal(`${LIB}/${fits}`.length, 400);
    assert.equal((await writes[0]![1](fits)).status, 200);
  });
});
