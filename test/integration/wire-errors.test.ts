// SharePoint's errors on the wire (reference §7): for each situation the exact HTTP status,
// `code` and message, in each dialect's envelope — verbose `{"error":{code,message:{lang,value}}}`,
// JSON light `{"odata.error":…}` and OData v4 `{"error":{code,message:"<string>"}}` — with
// SharePoint's headers and never a stack trace. Also the list view threshold (§2, §7.2).

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';
import { GUID } from '../helpers/wire.ts';

type DialectName = 'verbose' | 'minimal' | 'nometadata' | 'v4';

const DIALECTS: Record<DialectName, { accept: string; v4: boolean; contentType: string }> = {
  verbose: { accept: 'application/json;odata=verbose', v4: false, contentType: 'application/json;odata=verbose;charset=utf-8' },
  minimal: { accept: 'application/json', v4: false, contentType: 'application/json;odata=minimalmetadata;streaming=true;charset=utf-8' },
  nometadata: { accept: 'application/json;odata=nometadata', v4: false, contentType: 'application/json;odata=nometadata;streaming=true;charset=utf-8' },
  v4: { accept: 'application/json;odata.metadata=minimal', v4: true, contentType: 'application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8' },
};
const DIALECT_NAMES = Object.keys(DIALECTS) as DialectName[];

interface Res { status: number; headers: Headers; text: string; json: any }

interface Request {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Item properties; sent with `__metadata` and the verbose content type in the verbose dialect. */
  item?: Record<string, unknown>;
}

async function send(site: string, dialect: DialectName, req: Request): Promise<Res> {
  const d = DIALECTS[dialect];
  const headers: Record<string, string> = { Accept: d.accept, ...(req.headers ?? {}) };
  if (d.v4) headers['OData-Version'] = '4.0';
  let body: string | undefined;
  if (req.item) {
    const verbose = dialect === 'verbose';
    headers['Content-Type'] = verbose ? 'application/json;odata=verbose' : 'application/json;charset=utf-8';
    body = JSON.stringify(verbose ? { __metadata: { type: 'SP.Data.TasksListItem' }, ...req.item } : req.item);
  }
  const r = await fetch(site + req.path, { method: req.method ?? (req.item ? 'POST' : 'GET'), headers, body });
  const text = await r.text();
  let json: any;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: r.status, headers: r.headers, text, json };
}

const STACK_TRACE = /\n\s+at |node_modules|\.ts:\d+|\.js:\d+|Error:/;

/** Status, headers and the exact envelope of an error in `dialect`. */
function assertError(res: Res, dialect: DialectName, status: number, code: string, message: string | RegExp): void {
  const d = DIALECTS[dialect];
  assert.equal(res.status, status, `${dialect}: ${res.text}`);
  assert.equal(res.headers.get('content-type'), d.contentType);
  const guid = res.headers.get('sprequestguid');
  assert.match(guid ?? '', GUID);
  assert.equal(res.headers.get('request-id'), guid);
  assert.equal(res.headers.get('x-sharepointhealthscore'), '0');
  assert.match(res.headers.get('microsoftsharepointteamservices') ?? '', /^16\.0\.0\.\d+$/);
  assert.equal(res.headers.get(d.v4 ? 'odata-version' : 'dataserviceversion'), d.v4 ? '4.0' : '3.0');
  assert.doesNotMatch(res.text, STACK_TRACE);
  assert.ok(res.json, `JSON body expected: ${res.text}`);
  let actual: string;
  if (dialect === 'v4') {
    assert.deepEqual(Object.keys(res.json), ['error']);
    assert.deepEqual(Object.keys(res.json.error), ['code', 'message']);
    assert.equal(typeof res.json.error.message, 'string', 'v4 messages are plain strings');
    actual = res.json.error.message;
  } else {
    const envelope = dialect === 'verbose' ? 'error' : 'odata.error';
    assert.deepEqual(Object.keys(res.json), [envelope]);
    const e = res.json[envelope];
    assert.deepEqual(Object.keys(e), ['code', 'message']);
    assert.deepEqual(Object.keys(e.message), ['lang', 'value']);
    assert.equal(e.message.lang, 'en-US');
    actual = e.message.value;
  }
  const e = res.json[dialect === 'verbose' || dialect === 'v4' ? 'error' : 'odata.error'];
  assert.equal(e.code, code);
  if (typeof message === 'string') assert.equal(actual, message);
  else assert.match(actual, message);
}

interface ErrorCase {
  name: string;
  request: (site: string) => Request;
  status: number;
  code: string;
  message: (site: string) => string | RegExp;
}

const TASKS = "/_api/web/lists/getbytitle('Tasks')";
const SP_EXCEPTION = '-1, Microsoft.SharePoint.SPException';
const CLIENT_QUERY = '-1, Microsoft.SharePoint.Client.InvalidClientQueryException';
const NOT_FOUND_CODE = '-1, Microsoft.SharePoint.Client.ResourceNotFoundException';
const NOT_FOUND_MESSAGE = "Exception of type 'Microsoft.SharePoint.Client.ResourceNotFoundException' was thrown.";
const LIST_BY_ID_MESSAGE = 'List does not exist.\n\nThe page you selected contains a list that does not exist. It may have been deleted by another user.';
const ITEM_MESSAGE = 'Item does not exist. It may have been deleted by another user.';
const COLUMN_CODE = '-2147024809, System.ArgumentException';

const CASES: ErrorCase[] = [
  {
    name: 'list not found by title',
    request: () => ({ path: "/_api/web/lists/getbytitle('No Such List')/items" }),
    status: 404, code: '-1, System.ArgumentException',
    message: (site) => `List 'No Such List' does not exist at site with URL '${site}'.`,
  },
  {
    name: 'list not found by title (GetByTitle casing, quote in title)',
    request: () => ({ path: "/_api/Web/Lists/GetByTitle('O''Brien')" }),
    status: 404, code: '-1, System.ArgumentException',
    message: (site) => `List 'O'Brien' does not exist at site with URL '${site}'.`,
  },
  {
    name: "list not found by GUID: lists(guid'…')",
    request: () => ({ path: "/_api/web/lists(guid'00000000-0000-0000-0000-00000000abcd')/items" }),
    status: 404, code: '-2130575322, Microsoft.SharePoint.SPException', message: () => LIST_BY_ID_MESSAGE,
  },
  {
    name: "list not found by GUID: lists/getbyid('…')",
    request: () => ({ path: "/_api/web/lists/getbyid('00000000-0000-0000-0000-00000000abcd')" }),
    status: 404, code: '-2130575322, Microsoft.SharePoint.SPException', message: () => LIST_BY_ID_MESSAGE,
  },
  {
    name: "list not found via web/getlist('/server/relative/url')",
    request: () => ({ path: "/_api/web/getlist('/sites/dev/Lists/NoSuchList')/items" }),
    status: 404, code: NOT_FOUND_CODE,
    message: () => 'List does not exist. The page you selected contains a list that does not exist. It may have been deleted by another user.',
  },
  {
    name: 'item not found: items(999)',
    request: () => ({ path: `${TASKS}/items(999)` }),
    status: 404, code: '-2130575338, System.ArgumentException', message: () => ITEM_MESSAGE,
  },
  {
    name: 'item not found: items/getbyid(999)',
    request: () => ({ path: `${TASKS}/items/getbyid(999)` }),
    status: 404, code: '-2130575338, System.ArgumentException', message: () => ITEM_MESSAGE,
  },
  {
    name: 'item not found on MERGE',
    request: () => ({ path: `${TASKS}/items(999)`, headers: { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' }, item: { Title: 'x' } }),
    status: 404, code: '-2130575338, System.ArgumentException', message: () => ITEM_MESSAGE,
  },
  {
    name: 'unknown property in $select (collection)',
    request: () => ({ path: `${TASKS}/items?$select=Title,ColDoesntExist` }),
    status: 400, code: SP_EXCEPTION, message: () => "The field or property 'ColDoesntExist' does not exist.",
  },
  {
    name: 'unknown property in $select (single item)',
    request: () => ({ path: `${TASKS}/items(1)?$select=ColDoesntExist` }),
    status: 400, code: SP_EXCEPTION, message: () => "The field or property 'ColDoesntExist' does not exist.",
  },
  {
    name: '$select=Author/Title without $expand=Author',
    request: () => ({ path: `${TASKS}/items?$select=Title,Author/Title` }),
    status: 400, code: SP_EXCEPTION,
    message: () => "The query to field 'Author/Title' is not valid. The $select query string must specify the target fields and the $expand query string must contains Author.",
  },
  {
    name: '$filter syntax error',
    request: () => ({ path: `${TASKS}/items?$filter=${encodeURIComponent('Title eq')}` }),
    status: 400, code: CLIENT_QUERY, message: () => 'The expression "Title eq" is not valid.',
  },
  {
    name: '$filter with an unbalanced parenthesis',
    request: () => ({ path: `${TASKS}/items?$filter=${encodeURIComponent("(Title eq 'a'")}` }),
    status: 400, code: CLIENT_QUERY, message: () => 'The expression "(Title eq \'a\'" is not valid.',
  },
  {
    name: '$select syntax error',
    request: () => ({ path: `${TASKS}/items?$select=${encodeURIComponent('Title,,Id')}` }),
    status: 400, code: CLIENT_QUERY, message: () => 'The expression "Title,,Id" is not valid.',
  },
  {
    name: 'unknown column in $filter',
    request: () => ({ path: `${TASKS}/items?$filter=${encodeURIComponent("Company eq 'x'")}` }),
    status: 400, code: COLUMN_CODE, message: () => "Column 'Company' does not exist. It may have been deleted by another user.",
  },
  {
    name: 'unknown column in $orderby',
    request: () => ({ path: `${TASKS}/items?$orderby=Company` }),
    status: 400, code: COLUMN_CODE, message: () => "Column 'Company' does not exist. It may have been deleted by another user.",
  },
  {
    name: 'unknown property in an item body',
    request: () => ({ path: `${TASKS}/items`, item: { Title: 'x', Company: 'Contoso' } }),
    status: 400, code: CLIENT_QUERY,
    message: () => "The property 'Company' does not exist on type 'SP.Data.TasksListItem'. Make sure to only use property names that are defined by the type.",
  },
  {
    name: 'wrong value type: a string for a Number field',
    request: () => ({ path: `${TASKS}/items`, item: { Title: 'x', Priority: 'high' } }),
    status: 400, code: CLIENT_QUERY,
    message: () => "Cannot convert a primitive value to the expected type 'Edm.Double'. See the inner exception for more details.",
  },
  {
    name: 'wrong value type: an object for a Boolean field on MERGE',
    request: () => ({ path: `${TASKS}/items(1)`, headers: { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' }, item: { Done: { yes: true } } }),
    status: 400, code: CLIENT_QUERY,
    message: () => "Cannot convert a primitive value to the expected type 'Edm.Boolean'. See the inner exception for more details.",
  },
  {
    name: 'wrong value type: text for a person id',
    request: () => ({ path: `${TASKS}/items`, item: { Title: 'x', AssignedToId: 'alice' } }),
    status: 400, code: CLIENT_QUERY,
    message: () => "Cannot convert a primitive value to the expected type 'Edm.Int32'. See the inner exception for more details.",
  },
  {
    name: 'ETag mismatch on MERGE',
    request: () => ({ path: `${TASKS}/items(1)`, headers: { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '"41"' }, item: { Title: 'x' } }),
    status: 412, code: '-1, Microsoft.SharePoint.Client.ClientServiceException',
    message: () => "The request ETag value '\"41\"' does not match the object's ETag value '\"1\"'.",
  },
  {
    name: 'unknown segment under web',
    request: () => ({ path: '/_api/web/NoSuchThing' }),
    status: 404, code: NOT_FOUND_CODE, message: () => NOT_FOUND_MESSAGE,
  },
  {
    name: 'unknown root segment',
    request: () => ({ path: '/_api/NoSuchThing' }),
    status: 404, code: NOT_FOUND_CODE, message: () => NOT_FOUND_MESSAGE,
  },
  {
    name: 'unknown segment under a list',
    request: () => ({ path: `${TASKS}/NoSuchThing` }),
    status: 404, code: NOT_FOUND_CODE, message: () => NOT_FOUND_MESSAGE,
  },
  {
    name: 'unknown segment under an item',
    request: () => ({ path: `${TASKS}/items(1)/NoSuchThing` }),
    status: 404, code: NOT_FOUND_CODE, message: () => NOT_FOUND_MESSAGE,
  },
  {
    name: 'unknown method with arguments',
    request: () => ({ path: "/_api/web/NoSuchMethod('x')/items" }),
    status: 404, code: NOT_FOUND_CODE, message: () => NOT_FOUND_MESSAGE,
  },
  {
    name: 'unknown POST target',
    request: () => ({ method: 'POST', path: `${TASKS}/items(1)/NoSuchAction()` }),
    status: 404, code: NOT_FOUND_CODE, message: () => NOT_FOUND_MESSAGE,
  },
];

describe('errors in every dialect (reference §7)', () => {
  const spemu = useTestServer();
  let site: string;
  before(async () => {
    site = spemu.server.site('/sites/dev');
  });

  for (const c of CASES) {
    it(`${c.name} → ${c.status}`, async () => {
      for (const dialect of DIALECT_NAMES) {
        const res = await send(site, dialect, c.request(site));
        assertError(res, dialect, c.status, c.code, c.message(site));
      }
    });
  }

  it('none of the failed writes above changed the list', async () => {
    const list = await fetch(`${site}${TASKS}?$select=ItemCount`, { headers: { Accept: DIALECTS.nometadata.accept } });
    assert.equal(((await list.json()) as { ItemCount: number }).ItemCount, 8);
    const item = await fetch(`${site}${TASKS}/items(1)?$select=Title,Done`, { headers: { Accept: DIALECTS.nometadata.accept } });
    assert.equal(item.headers.get('etag'), '"1"');
    assert.deepEqual(await item.json(), { Title: 'Write spec', Done: true });
  });

  it('406 for an Accept no dialect fits, in the envelope of the OData version asked for', async () => {
    const v3 = await fetch(`${site}${TASKS}`, { headers: { Accept: 'application/atom+xml' } });
    const v3json = (await v3.json()) as any;
    assert.equal(v3.status, 406);
    assert.deepEqual(Object.keys(v3json), ['odata.error']);
    assert.equal(v3json['odata.error'].message.value, 'The HTTP header ACCEPT is missing or its value is invalid.');
    const v4 = await fetch(`${site}${TASKS}`, { headers: { Accept: 'application/json;odata=verbose', 'OData-Version': '4.0' } });
    assert.equal(v4.status, 406);
    assert.equal(v4.headers.get('odata-version'), '4.0');
    const v4json = (await v4.json()) as any;
    assert.deepEqual(v4json, { error: { code: v4json.error.code, message: 'The HTTP header ACCEPT is missing or its value is invalid.' } });
  });
});

describe('list view threshold (reference §2, §7.2)', () => {
  // The demo Tasks list has 8 items: above a threshold of 5. Priority is indexed, Status is not.
  const spemu = useTestServer({ listViewThreshold: 5 });
  let site: string;
  before(() => { site = spemu.server.site('/sites/dev'); });

  const THROTTLED: Array<[string, string]> = [
    ['$filter on a non-indexed column', `$filter=${encodeURIComponent("Status eq 'Done'")}`],
    ['$filter on Title (not indexed)', `$filter=${encodeURIComponent("Title eq 'Write spec'")}`],
    ['$filter mixing an indexed and a non-indexed column', `$filter=${encodeURIComponent("Priority eq 1 and Status eq 'Done'")}`],
    ['$orderby on a non-indexed column', '$orderby=Status'],
    ['$filter on an indexed column, $orderby on a non-indexed one', `$filter=${encodeURIComponent('Priority eq 1')}&$orderby=Modified desc`],
  ];
  for (const [name, query] of THROTTLED) {
    it(`${name} → 500 SPQueryThrottledException`, async () => {
      for (const dialect of DIALECT_NAMES) {
        const res = await send(site, dialect, { path: `${TASKS}/items?${query}` });
        assertError(res, dialect, 500, '-2147024860, Microsoft.SharePoint.SPQueryThrottledException',
          'The attempted operation is prohibited because it exceeds the list view threshold.');
      }
    });
  }

  const ALLOWED: Array<[string, string, number[]]> = [
    ['$filter on an indexed column', `$filter=${encodeURIComponent('Priority eq 1')}`, [1, 3, 4]],
    ['$filter on ID', `$filter=${encodeURIComponent('ID gt 6')}`, [7, 8]],
    ['$filter on Id', `$filter=${encodeURIComponent('Id le 2')}`, [1, 2]],
    ['$orderby on ID', '$orderby=ID desc&$top=3', [8, 7, 6]],
    ['$orderby on an indexed column', `$orderby=Priority desc&$filter=${encodeURIComponent('Priority ge 3')}`, [7, 8]],
    ['no $filter and no $orderby', '$top=2', [1, 2]],
  ];
  for (const [name, query, ids] of ALLOWED) {
    it(`${name} → 200`, async () => {
      const res = await send(site, 'nometadata', { path: `${TASKS}/items?$select=Id&${query}` });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.value.map((x: { Id: number }) => x.Id), ids);
    });
  }

  it('a list at or below the threshold may be filtered on anything', async () => {
    const res = await send(site, 'nometadata', { path: `/_api/web/lists/getbytitle('Projects')/items?$select=Id&$filter=${encodeURIComponent('Budget gt 50000')}` });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.value, [{ Id: 1 }, { Id: 2 }]);
  });
});
