import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ODataSyntaxError } from '../../src/odata/errors.ts';
import { parseLiteral } from '../../src/odata/literal.ts';
import { argumentLiteral, parseApiPath } from '../../src/odata/path.ts';
import type { Literal } from '../../src/query/ast.ts';

const none = new Map<string, string>();
const str = (value: string): Literal => ({ kind: 'literal', type: 'string', value });
const num = (value: number, raw = String(value)): Literal => ({ kind: 'literal', type: 'number', value, raw });
const guid = (value: string): Literal => ({ kind: 'literal', type: 'guid', value });
const seg = (name: string) => ({ name, lname: name.toLowerCase() });
const G1 = '3f0c5a8e-1b2c-4d3e-8f9a-0b1c2d3e4f5a';
const G2 = 'A0B1C2D3-E4F5-4A6B-8C7D-9E0F1A2B3C4D';

function assertSyntaxError(run: () => unknown, expression: string): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ODataSyntaxError, `expected ODataSyntaxError, got ${String(error)}`);
    assert.equal(error.expression, expression);
    return true;
  });
}

test('literals', () => {
  assert.deepEqual(parseLiteral("'it''s'"), str("it's"));
  assert.deepEqual(parseLiteral("  ''  "), str(''));
  assert.deepEqual(parseLiteral('5'), num(5));
  assert.deepEqual(parseLiteral('-1.5'), num(-1.5));
  assert.deepEqual(parseLiteral('10L'), num(10, '10L'));
  assert.deepEqual(parseLiteral('2.5m'), num(2.5, '2.5m'));
  assert.deepEqual(parseLiteral('1e3'), num(1000, '1e3'));
  assert.deepEqual(parseLiteral('TRUE'), { kind: 'literal', type: 'boolean', value: true });
  assert.deepEqual(parseLiteral('false'), { kind: 'literal', type: 'boolean', value: false });
  assert.deepEqual(parseLiteral('null'), { kind: 'literal', type: 'null' });
  assert.deepEqual(parseLiteral(`guid'${G1}'`), guid(G1));
  assert.deepEqual(parseLiteral("datetime'2024-01-02T03:04:05Z'"), {
    kind: 'literal',
    type: 'datetime',
    value: '2024-01-02T03:04:05Z',
  });
  for (const bad of ["'a", "'a'b'", "'a' 'b'", 'abc', '1.', '--1', "guid'nope'", "x'00'", '', '1e999']) {
    assertSyntaxError(() => parseLiteral(bad), bad);
  }
});

test('seed paths', () => {
  assert.deepEqual(parseApiPath("web/lists/getbytitle('Tasks')/items(1)", none), [
    seg('web'),
    seg('lists'),
    { ...seg('getbytitle'), args: [{ value: str('Tasks') }] },
    { ...seg('items'), args: [{ value: num(1) }] },
  ]);
  assert.deepEqual(parseApiPath("Web/Lists/getByTitle('User%20Information%20List')/items", none), [
    { name: 'Web', lname: 'web' },
    { name: 'Lists', lname: 'lists' },
    { name: 'getByTitle', lname: 'getbytitle', args: [{ value: str('User Information List') }] },
    seg('items'),
  ]);
  assert.deepEqual(parseApiPath('web/EnsureUser', none), [seg('web'), seg('EnsureUser')]);
  assert.deepEqual(parseApiPath(`lists(guid'${G1}')/items/getbyid(5)`, none), [
    { ...seg('lists'), args: [{ value: guid(G1) }] },
    seg('items'),
    { ...seg('getbyid'), args: [{ value: num(5) }] },
  ]);
});

test('aliases are resolved from the map', () => {
  const login = 'i:0#.f|membership|alice@contoso.onmicrosoft.com';
  const aliases = new Map([['@v', `'${login}'`]]);
  assert.deepEqual(parseApiPath('SP.UserProfiles.PeopleManager/GetPropertiesFor(accountName=@v)', aliases), [
    { name: 'SP.UserProfiles.PeopleManager', lname: 'sp.userprofiles.peoplemanager' },
    {
      name: 'GetPropertiesFor',
      lname: 'getpropertiesfor',
      args: [{ name: 'accountName', value: { kind: 'alias', name: '@v', value: str(login) } }],
    },
  ]);
  const path = "sp.userprofiles.peoplemanager/getuserprofilepropertyfor(accountname=@v, propertyname='PictureURL')";
  assert.deepEqual(parseApiPath(path, aliases)[1], {
    ...seg('getuserprofilepropertyfor'),
    args: [
      { name: 'accountname', value: { kind: 'alias', name: '@v', value: str(login) } },
      { name: 'propertyname', value: str('PictureURL') },
    ],
  });
  assert.deepEqual(parseApiPath('items(@id)', new Map([['@id', '7']])), [
    { ...seg('items'), args: [{ value: { kind: 'alias', name: '@id', value: num(7) } }] },
  ]);
});

test('argumentLiteral: an alias stands for its value, a literal for itself', () => {
  const [segment] = parseApiPath("getbyid(@v, 'x', @w)", new Map([['@v', '5'], ['@w', "guid'" + G1 + "'"]]));
  const values = segment!.args!.map((a) => a.value);
  assert.equal(values[0]!.kind, 'alias');
  assert.deepEqual(values.map(argumentLiteral), [num(5), str('x'), guid(G1)]);
  // The alias's own value object, not a copy; and nothing for a missing argument.
  assert.equal(argumentLiteral(values[0]), (values[0] as { value: Literal }).value);
  assert.equal(argumentLiteral(undefined), undefined);
  assert.deepEqual(argumentLiteral({ kind: 'alias', name: '@n', value: { kind: 'literal', type: 'null' } }), { kind: 'literal', type: 'null' });
});

test('slashes inside literals do not split', () => {
  assert.deepEqual(parseApiPath("web/getlist('/sites/dev/Lists/T')/items", none), [
    seg('web'),
    { ...seg('getlist'), args: [{ value: str('/sites/dev/Lists/T') }] },
    seg('items'),
  ]);
  assert.deepEqual(parseApiPath("web/siteusers/getbyloginname('i%3A0%23.f%7Cmembership%7Ca%40b.c')", none)[2], {
    ...seg('getbyloginname'),
    args: [{ value: str('i:0#.f|membership|a@b.c') }],
  });
  assert.deepEqual(parseApiPath("web/GetFolderByServerRelativeUrl('/a/b)')/Files", none)[1], {
    ...seg('GetFolderByServerRelativeUrl'),
    args: [{ value: str('/a/b)') }],
  });
  assert.deepEqual(parseApiPath("getbytitle('a%2Fb')", none), [{ ...seg('getbytitle'), args: [{ value: str('a/b') }] }]);
});

test('quotes: escaped and percent-encoded', () => {
  assert.deepEqual(parseApiPath("getbytitle('O''Brien''s list')", none), [
    { ...seg('getbytitle'), args: [{ value: str("O'Brien's list") }] },
  ]);
  assert.deepEqual(parseApiPath('getbytitle(%27Tasks%27)/items', none), [
    { ...seg('getbytitle'), args: [{ value: str('Tasks') }] },
    seg('items'),
  ]);
  assert.deepEqual(parseApiPath('getbytitle(%27O%27%27Brien%27)', none)[0]!.args, [{ value: str("O'Brien") }]);
  assert.deepEqual(parseApiPath("getbytitle('a+b')", none)[0]!.args, [{ value: str('a+b') }], '+ is a literal plus');
  assert.deepEqual(parseApiPath("getbytitle('a%25b')", none)[0]!.args, [{ value: str('a%b') }], 'decoded exactly once');
});

test('empty parentheses, compound keys, special names, slashes', () => {
  assert.deepEqual(parseApiPath('items(5)/recycle()', none), [
    { ...seg('items'), args: [{ value: num(5) }] },
    { ...seg('recycle'), args: [] },
  ]);
  assert.deepEqual(parseApiPath(`Tasks(ProjectId=guid'${G1}',TaskId=guid'${G2}')`, none), [
    {
      ...seg('Tasks'),
      args: [
        { name: 'ProjectId', value: guid(G1) },
        { name: 'TaskId', value: guid(G2) },
      ],
    },
  ]);
  assert.deepEqual(parseApiPath('items( 5 )', none)[0]!.args, [{ value: num(5) }]);
  assert.deepEqual(parseApiPath('$batch', none), [seg('$batch')]);
  assert.deepEqual(parseApiPath('$metadata', none), [seg('$metadata')]);
  assert.deepEqual(parseApiPath('web/lists/', none), [seg('web'), seg('lists')]);
  assert.deepEqual(parseApiPath('web%2Flists', none), [seg('web'), seg('lists')], 'lenient: %2F outside parentheses splits');
  assert.deepEqual(parseApiPath('', none), []);
  assert.deepEqual(parseApiPath('/', none), []);
});

test('syntax errors carry the whole decoded path', () => {
  const bad = [
    '/web',
    'web//lists',
    'web/lists//',
    'web lists',
    "getbytitle('Tasks'",
    "getbytitle('Tasks)",
    'items(5))',
    'items(5)x',
    'items(5)(6)',
    'items(5,)',
    'items(,5)',
    'items(5 6)',
    'items(abc)',
    'items(id=)',
    'items(@)',
    'items(@1)',
    "web/lists/getbytitle('a'')",
    '(((',
    'web/lists)',
    "items(guid'x')",
  ];
  for (const path of bad) assertSyntaxError(() => parseApiPath(path, none), path);
  assertSyntaxError(() => parseApiPath('items(@missing)', none), 'items(@missing)');
  assertSyntaxError(() => parseApiPath("getbytitle(%27a%2)", none), "getbytitle(%27a%2)");
  assertSyntaxError(() => parseApiPath("getbytitle(%27a b)", none), "getbytitle('a b)");
  // A bad alias value is reported with the alias value's own text.
  assertSyntaxError(() => parseApiPath('items(@v)', new Map([['@v', "'open"]])), "'open");
});

test('hostile paths are rejected or parsed in linear time', () => {
  const started = performance.now();
  const parens = 'a' + '('.repeat(1 << 20);
  assertSyntaxError(() => parseApiPath(parens, none), parens);
  const onlyParens = '('.repeat(1 << 20);
  assertSyntaxError(() => parseApiPath(onlyParens, none), onlyParens);
  const openQuote = "a('" + "''".repeat(1 << 19);
  assertSyntaxError(() => parseApiPath(openQuote, none), openQuote);
  const manyArgs = `a(${'1,'.repeat(1 << 18)}1)`;
  assert.equal(parseApiPath(manyArgs, none)[0]!.args!.length, (1 << 18) + 1);
  const segments = Array.from({ length: 10_000 }, (_, i) => `s${i}(${i})`).join('/');
  assert.equal(parseApiPath(segments, none).length, 10_000);
  const longName = 'x'.repeat(1 << 20);
  assert.equal(parseApiPath(longName, none)[0]!.name.length, 1 << 20);
  const elapsed = performance.now() - started;
  // Linear work here takes ~0.1 s; a quadratic parser would take minutes on inputs of 2^20. The
  // bound is loose on purpose: it must hold on a loaded 2-core CI machine, and still catch that.
  assert.ok(elapsed < 10_000, `took ${elapsed} ms`);
});
