// A page's file name from its title (domain/site-pages.ts): what the first save names a page.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isUntitledPageName, numberedPageName, pageFileNameFromTitle, untitledPageName } from '../../src/domain/site-pages.ts';
import { nameProblem } from '../../src/domain/documents.ts';

describe('modern page names', () => {
  it('a title becomes a file name SharePoint accepts: refused characters dropped, spaces made dashes, .aspx', () => {
    assert.equal(pageFileNameFromTitle('TestingAdd_ab12'), 'TestingAdd_ab12.aspx');
    assert.equal(pageFileNameFromTitle('My  first page'), 'My-first-page.aspx');
    assert.equal(pageFileNameFromTitle('What? A <b>"page"</b>: #1 & 100%'), 'What-A-bpageb-1-100.aspx');
    assert.equal(pageFileNameFromTitle('Already.aspx'), 'Already.aspx');
    assert.equal(pageFileNameFromTitle('...dots...'), 'dots.aspx');
    assert.equal(pageFileNameFromTitle('   '), undefined);
    assert.equal(pageFileNameFromTitle('?*:'), undefined);
    const long = pageFileNameFromTitle('x'.repeat(400))!;
    assert.equal(long.length, 128 + '.aspx'.length);
    for (const title of ['a/b\\c', 'tab\there', 'Ünïcödé Seite', '~$lock']) {
      const name = pageFileNameFromTitle(title)!;
      assert.equal(nameProblem(name), undefined, `${title} → ${name}`);
    }
  });

  it('placeholder names and numbered names', () => {
    assert.equal(untitledPageName(3), 'Untitled_3.aspx');
    assert.equal(isUntitledPageName('untitled_12.ASPX'), true);
    assert.equal(isUntitledPageName('Untitled.aspx'), false);
    assert.equal(numberedPageName('Page.aspx', 0), 'Page.aspx');
    assert.equal(numberedPageName('Page.aspx', 2), 'Page2.aspx');
  });
});
