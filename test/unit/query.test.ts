import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ODataSyntaxError } from '../../src/odata/errors.ts';
import {
  parseExpand,
  parseFormat,
  parseInlineCount,
  parseOrderBy,
  parseQueryString,
  parseSelect,
  parseSkip,
  parseSkipToken,
  parseTop,
} from '../../src/odata/query.ts';

function assertSyntaxError(run: () => unknown, expression: string): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ODataSyntaxError, `expected ODataSyntaxError, got ${String(error)}`);
    assert.equal(error.expression, expression);
    return true;
  });
}

test('query string: options, aliases, params', () => {
  const query = parseQueryString("$select=Title,Author/ID&$expand=Author&$filter=Id+eq+5&@v='a%2Bb+c'&foo=1&Bar&&");
  assert.deepEqual(
    query.options,
    new Map([
      ['$select', 'Title,Author/ID'],
      ['$expand', 'Author'],
      ['$filter', 'Id eq 5'],
    ]),
  );
  assert.deepEqual(query.aliases, new Map([['@v', "'a+b c'"]]));
  assert.deepEqual(
    query.params,
    new Map([
      ['foo', '1'],
      ['Bar', ''],
    ]),
  );
});

test('query string: encoded and mixed-case option names, value split at first =', () => {
  const query = parseQueryString('%24top=3&$ORDERBY=Title&$filter=Title+eq+%27a=b%27');
  assert.deepEqual(
    query.options,
    new Map([
      ['$top', '3'],
      ['$orderby', 'Title'],
      ['$filter', "Title eq 'a=b'"],
    ]),
  );
  assert.deepEqual(parseQueryString(''), { options: new Map(), aliases: new Map(), params: new Map() });
});

test('query string: skip token, encoded and unencoded', () => {
  assert.equal(parseQueryString('$skiptoken=Paged%3dTRUE%26p_ID%3d3').options.get('$skiptoken'), 'Paged=TRUE&p_ID=3');
  const folded = parseQueryString('$skiptoken=Paged=TRUE&p_ID=5&$top=2');
  assert.deepEqual(
    folded.options,
    new Map([
      ['$skiptoken', 'Paged=TRUE&p_ID=5'],
      ['$top', '2'],
    ]),
  );
  assert.deepEqual(folded.params, new Map());
  const prev = parseQueryString('$skiptoken=Paged=TRUE&PagedPrev=TRUE&p_Title=a%20b&P_ID=5&other=1');
  assert.equal(prev.options.get('$skiptoken'), 'Paged=TRUE&PagedPrev=TRUE&p_Title=a%20b&P_ID=5');
  assert.deepEqual(prev.params, new Map([['other', '1']]));
  // Without $skiptoken a p_* parameter is just a parameter.
  assert.deepEqual(parseQueryString('p_ID=5').params, new Map([['p_ID', '5']]));
});

test('query string: errors', () => {
  assertSyntaxError(() => parseQueryString('$top=1&$TOP=2'), '$top');
  assertSyntaxError(() => parseQueryString('@v=1&@v=2'), '@v');
  assertSyntaxError(() => parseQueryString('$filter=Title+eq+%27100%%27'), "$filter=Title+eq+%27100%%27");
  assertSyntaxError(() => parseQueryString('a=1&%E0%A4%A=2'), '%E0%A4%A=2');
});

test('$select and $expand', () => {
  assert.deepEqual(parseSelect('Title,Author/Title, Author/ID'), [['Title'], ['Author', 'Title'], ['Author', 'ID']]);
  assert.deepEqual(parseSelect('*'), [['*']]);
  assert.deepEqual(parseSelect('Author/*, File_x0020_Type,OData__UIVersionString'), [
    ['Author', '*'],
    ['File_x0020_Type'],
    ['OData__UIVersionString'],
  ]);
  assert.deepEqual(parseExpand('Author,Editor , Folder/Files'), [['Author'], ['Editor'], ['Folder', 'Files']]);
  for (const bad of ['', ' ', 'Id,,Title', 'Id,Title,', ',Id', 'Author/', '/Title', 'Au thor', 'Title eq 1', '*/Title', 'a//b', "Title'"]) {
    assertSyntaxError(() => parseSelect(bad), bad);
  }
  for (const bad of ['*', 'Author/*', 'Author,', '']) assertSyntaxError(() => parseExpand(bad), bad);
});

test('$orderby', () => {
  assert.deepEqual(parseOrderBy('Title desc, Created'), [
    { path: ['Title'], direction: 'desc' },
    { path: ['Created'], direction: 'asc' },
  ]);
  assert.deepEqual(parseOrderBy('Author/Title ASC,ID  DESC'), [
    { path: ['Author', 'Title'], direction: 'asc' },
    { path: ['ID'], direction: 'desc' },
  ]);
  for (const bad of ['', 'Title,', 'Title down', 'Title desc asc', 'Title desc,,ID', '*', 'Ti-tle']) {
    assertSyntaxError(() => parseOrderBy(bad), bad);
  }
});

test('$top and $skip', () => {
  assert.equal(parseTop('0'), 0);
  assert.equal(parseTop('5000'), 5000);
  assert.equal(parseSkip('2147483647'), 2147483647);
  assert.equal(parseSkip('007'), 7);
  for (const bad of ['', '-1', '+1', ' 1', '1 ', '1.5', '2147483648', '99999999999', 'abc', '1e3']) {
    assertSyntaxError(() => parseTop(bad), bad);
    assertSyntaxError(() => parseSkip(bad), bad);
  }
});

test('$skiptoken', () => {
  assert.deepEqual(parseSkipToken('Paged=TRUE&p_ID=5'), { paged: true, pagedPrev: false, values: new Map([['p_ID', '5']]) });
  assert.deepEqual(parseSkipToken('Paged=true&PagedPrev=TRUE&p_ID=5&p_Title=abc%20d'), {
    paged: true,
    pagedPrev: true,
    values: new Map([
      ['p_ID', '5'],
      ['p_Title', 'abc d'],
    ]),
  });
  assert.deepEqual(parseSkipToken('Paged=TRUE'), { paged: true, pagedPrev: false, values: new Map() });
  assert.deepEqual(parseSkipToken('Paged=TRUE&p_Title='), { paged: true, pagedPrev: false, values: new Map([['p_Title', '']]) });
  for (const bad of ['', 'p_ID=5', 'Paged=YES&p_ID=5', 'Paged=TRUE&ID=5', 'Paged=TRUE&p_=5', 'Paged=TRUE&p_ID', 'Paged=TRUE&p_ID=1&p_ID=2', 'Paged=TRUE&p_T=%E0%A4%A', 'Paged=TRUE&']) {
    assertSyntaxError(() => parseSkipToken(bad), bad);
  }
});

test('$inlinecount and $format', () => {
  assert.equal(parseInlineCount('allpages'), 'allpages');
  assert.equal(parseInlineCount('None'), 'none');
  assertSyntaxError(() => parseInlineCount('some'), 'some');
  assert.equal(parseFormat('json'), 'json');
  assert.equal(parseFormat('application/json;odata=verbose'), 'application/json;odata=verbose');
  assertSyntaxError(() => parseFormat(''), '');
});

test('hostile query strings finish quickly', () => {
  const started = performance.now();
  const pairs = Array.from({ length: 50_000 }, (_, i) => `k${i}=v`).join('&');
  assert.equal(parseQueryString(pairs).params.size, 50_000);
  const select = Array.from({ length: 100_000 }, (_, i) => `F${i}/Title`).join(',');
  assert.equal(parseSelect(select).length, 100_000);
  const longBad = 'a,'.repeat(1 << 19);
  assertSyntaxError(() => parseSelect(longBad), longBad);
  const digits = '9'.repeat(1 << 20);
  assertSyntaxError(() => parseTop(digits), digits);
  const elapsed = performance.now() - started;
  // Linear work here takes ~0.1 s; a quadratic parser would take minutes on inputs of 2^20. The
  // bound is loose on purpose: it must hold on a loaded 2-core CI machine, and still catch that.
  assert.ok(elapsed < 10_000, `took ${elapsed} ms`);
});
