// Names of files and folders as SharePoint Online accepts them, and paths inside a list.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkName, decodeUrlText, fileType, isWithin, nameProblem, splitPath } from '../../src/domain/documents.ts';
import { DomainError } from '../../src/domain/errors.ts';

describe('file and folder names', () => {
  it('accept ordinary names, # and % included (SharePoint Online allows them)', () => {
    for (const name of ['report.docx', 'Q1 2024 (draft).xlsx', 'a#b%c.txt', 'ünïcødé 名前.pdf', '.gitignore', 'x'.repeat(255)]) {
      assert.equal(nameProblem(name), undefined, name);
    }
  });

  it('refuse what SharePoint Online refuses, with the reason', () => {
    const refused: Array<[string, RegExp]> = [
      ['', /empty/], ['a"b', /character/], ['a*b', /character/], ['a:b', /character/], ['a<b', /character/], ['a>b', /character/],
      ['a?b', /character/], ['a/b', /character/], ['a\\b', /character/], ['a|b', /character/], ['tab\there', /character/],
      [' lead', /space/], ['trail ', /space/], ['name.', /dot/], ['..', /dots/], ['~$lock.docx', /~\$/],
      ['CON', /reserved/], ['con.txt', /reserved/], ['LPT1', /reserved/], ['a_vti_b', /reserved/], ['desktop.ini', /reserved/],
      ['x'.repeat(256), /longer/],
    ];
    for (const [name, reason] of refused) assert.match(nameProblem(name) ?? '', reason, JSON.stringify(name));
    assert.throws(() => checkName('a|b'), (e: unknown) => e instanceof DomainError && e.reason === 'invalidFileName' && e.kind === 'invalid');
  });

  it('split paths, test ancestry case-insensitively, and give the extension', () => {
    assert.deepEqual(splitPath('A/B/c.txt'), { dir: 'A/B', name: 'c.txt' });
    assert.deepEqual(splitPath('/A//c.txt/'), { dir: 'A', name: 'c.txt' });
    assert.deepEqual(splitPath(''), { dir: '', name: '' });
    assert.equal(isWithin('Reports/2024/q1.txt', 'reports'), true);
    assert.equal(isWithin('Reports2/x', 'Reports'), false);
    assert.equal(isWithin('anything', ''), true);
    assert.deepEqual(['a.docx', 'archive.tar.gz', 'README', '.gitignore'].map(fileType), ['docx', 'gz', '', '']);
  });
});

it('decodeUrlText decodes every escape and keeps a % that starts none, or a run that is no UTF-8', () => {
  assert.equal(decodeUrlText('/sites/dev/Shared%20Documents/a%C3%A9.txt'), '/sites/dev/Shared Documents/aé.txt');
  assert.equal(decodeUrlText('100%25%zz.txt'), '100%%zz.txt');
  assert.equal(decodeUrlText('50% off %E9.txt'), '50% off %E9.txt');
  assert.equal(decodeUrlText('plain'), 'plain');
});
