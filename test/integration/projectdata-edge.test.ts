// The ProjectData feed on odd and hostile input: every bad request gets WCF DS's error body with
// the right status (never a 500 or a stack trace), next links round-trip exactly whatever the
// options hold, paging stays exact with nullable sorts, and what clients send that WCF DS takes
// (empty parentheses, empty options, `Accept: text/plain` on $count, HEAD) works. Both backends.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, useTestServer } from '../helpers/server.ts';

const LIGHT = 'application/json';
const VERBOSE = 'application/json;odata=verbose';
const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const T = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const TRICKY = "Build & test #1 +50% a'b";
const HOSTILE = 'Apollo & <Co> ]]> "q" \u0001 end';

interface Res { status: number; headers: Headers; text: string; json: any }

async function get(url: string, accept?: string, method = 'GET'): Promise<Res> {
  const res = await fetch(url, { method, headers: accept ? { Accept: accept } : {} });
  const text = await res.text();
  let json: unknown;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, headers: res.headers, text, json };
}

/** A WCF DS error: the status, the light envelope with an empty code, and no trace of the server's insides. */
function assertError(res: Res, status: number, message?: string | RegExp): void {
  assert.equal(res.status, status, res.text);
  const error = res.json?.['odata.error'];
  assert.ok(error && error.code === '' && typeof error.message.value === 'string', res.text);
  if (typeof message === 'string') assert.equal(error.message.value, message);
  else if (message) assert.match(error.message.value, message);
  assert.doesNotMatch(res.text, /\.ts:\d|at [\w.]+ \(|node_modules/);
}

const tasks = [
  { ProjectId: P1, TaskId: T(1), TaskName: 'Design', TaskIndex: 1, TaskFinishDate: '2016-06-30T00:00:00Z' },
  { ProjectId: P1, TaskId: T(2), TaskName: TRICKY, TaskIndex: 2, TaskFinishDate: '2016-07-15T17:00:00Z' },
  { ProjectId: P1, TaskId: T(3), TaskName: "O'Brien review", TaskIndex: 3, TaskFinishDate: '2016-06-10T17:00:00Z' },
  { ProjectId: P2, TaskId: T(4), TaskName: 'Launch', TaskIndex: 1, TaskFinishDate: '1961-05-05T14:34:00Z' },
  { ProjectId: P2, TaskId: T(5), TaskName: 'Splashdown', TaskIndex: 2, TaskFinishDate: null },
  { ProjectId: P2, TaskId: T(6), TaskName: null, TaskIndex: 3, TaskFinishDate: null },
  { ProjectId: P2, TaskId: T(7), TaskName: TRICKY, TaskIndex: 4, TaskFinishDate: null },
];

function fixture() {
  return {
    tenant: { name: 'fabrikam' },
    users: [{ upn: 'olivia@fabrikam.onmicrosoft.com', displayName: 'Olivia Owner', password: 'pw-olivia' }],
    sites: [{ url: '/sites/pwa', title: 'PWA', owners: ['olivia@fabrikam.onmicrosoft.com'] }],
    projectData: {
      '/sites/pwa': {
        pageSizes: { Tasks: 2, Assignments: 2 },
        Projects: [
          { ProjectId: P1, ProjectName: HOSTILE, ProjectCost: 1200.5, ProjectStartDate: '0001-01-01T00:00:00', ProjectFinishDate: '2016-06-30T23:59:59.9999999' },
          { ProjectId: P2, ProjectName: 'Mercury', ProjectFinishDate: null },
        ],
        Tasks: tasks,
        // Costs with seven decimals: a six-place skip token would lose rows between them.
        Assignments: Array.from({ length: 9 }, (_, i) => ({ ProjectId: P1, AssignmentId: T(100 + i), AssignmentCost: Number((0.1234561 + (8 - i) * 1e-7).toFixed(7)) })),
        Risks: [{ ProjectId: P1, RiskId: T(100), Title: 'R', Cost: 3 }],
      },
    },
  };
}

describe('ProjectData edge cases', () => {
  const spemu = useTestServer(() => ({ seed: fixture() }));
  let base: string;
  before(async () => {
    base = `${spemu.server.site('/sites/pwa')}/_api/ProjectData`;
  });

  /** Every row a query gives, following next links; the pages' counts too. */
  async function walk(url: string, accept = LIGHT): Promise<{ rows: any[]; pages: number; counts: unknown[]; links: string[] }> {
    const out = { rows: [] as any[], pages: 0, counts: [] as unknown[], links: [] as string[] };
    for (let next: string | undefined = url; next;) {
      const res = await get(next, accept);
      assert.equal(res.status, 200, `${next}: ${res.text}`);
      const body = accept === VERBOSE ? res.json.d : res.json;
      out.rows.push(...(accept === VERBOSE ? body.results : body.value));
      out.counts.push(accept === VERBOSE ? body.__count : body['odata.count']);
      next = accept === VERBOSE ? body.__next : body['odata.nextLink'];
      if (next) out.links.push(next);
      out.pages++;
    }
    return out;
  }

  it('odd paths: empty parentheses are the set, chains of navigation resolve, wrong shapes are 400 or 404', async () => {
    assert.equal((await get(`${base}/Projects()/$count`)).text, '2');
    const all = await get(`${base}/Projects()/?$select=ProjectId`, LIGHT);
    assert.equal(all.status, 200, all.text);
    assert.equal(all.json.value.length, 2);
    const chain = await get(`${base}/Projects(guid'${P1}')/Tasks(ProjectId=guid'${P1}',TaskId=guid'${T(1)}')/Project/Tasks?$select=TaskName`, LIGHT);
    assert.deepEqual(chain.json.value.map((r: any) => r.TaskName), ['Design', TRICKY]);
    // Percent-encoded quotes in a key and brackets around the locale are the same URL.
    const encoded = await get(`${base}/%5Ben-US%5D/Projects(guid%27${P2}%27)?$select=ProjectName`, LIGHT);
    assert.equal(encoded.json.ProjectName, 'Mercury');
    assert.equal(encoded.json['odata.metadata'], `${base}/[en-US]/$metadata#Projects/@Element&$select=ProjectName`);

    assertError(await get(`${base}/Projects('abc')`, LIGHT), 400, 'Bad Request - Error in query syntax.');
    assertError(await get(`${base}/TimeSet(datetime'2016-13-01')`, LIGHT), 400);
    assertError(await get(`${base}/Projects(guid'${P1}')/Tasks(guid'${T(1)}')`, LIGHT), 400);
    assertError(await get(`${base}/Projects(guid'${P1}')/ProjectName/$count`, LIGHT), 400, /\$count cannot be applied to the segment 'ProjectName'/);
    assertError(await get(`${base}/Projects/ProjectName`, LIGHT), 400, /refers to a collection/);
    assertError(await get(`${base}/Projects(guid'${P1}')/$links/Tasks`, LIGHT), 404);
    assertError(await get(`${base}//Projects`, LIGHT), 400);
    assertError(await get(`${base}/Projects(guid'${T(99)}')/Tasks`, LIGHT), 404);
  });

  it('$value of a null is 404; of a value, the raw text for Accept: text/plain as for any Accept', async () => {
    assertError(await get(`${base}/Projects(guid'${P2}')/ProjectFinishDate/$value`, LIGHT), 404, "Resource not found for the segment '$value'.");
    const cost = await get(`${base}/Projects(guid'${P1}')/ProjectCost/$value`, 'text/plain');
    assert.deepEqual([cost.status, cost.text], [200, '1200.500000']);
    const count = await get(`${base}/Tasks/$count?$top=1&$skip=1&$orderby=TaskName`, 'text/plain');
    assert.deepEqual([count.status, count.text], [200, '7'], 'the count ignores $top, $skip and $orderby');
    assert.match(count.headers.get('content-type') ?? '', /^text\/plain/);
  });

  it('HEAD answers as GET without a body; writes stay 405', async () => {
    const head = await get(`${base}/Projects?$top=1`, LIGHT, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.match(head.headers.get('content-type') ?? '', /^application\/json;odata=minimalmetadata/);
    assert.equal((await get(`${base}/Projekts`, LIGHT, 'HEAD')).status, 404);
    assertError(await get(`${base}/Projects`, LIGHT, 'PUT'), 405);
  });

  it('query options: empty ones are absent, out-of-range ones and wrong types are 400', async () => {
    const empty = await get(`${base}/Projects?$select=&$filter=&$orderby=&$top=&$skip=&$inlinecount=&$format=`, LIGHT);
    assert.equal(empty.status, 200, empty.text);
    assert.equal(empty.json.value.length, 2);
    assert.ok('ProjectCost' in empty.json.value[0], 'every property');
    assert.deepEqual((await get(`${base}/Tasks?$top=0&$inlinecount=allpages`, LIGHT)).json, {
      'odata.metadata': `${base}/$metadata#Tasks`, 'odata.count': '7', value: [],
    });
    const far = await get(`${base}/Tasks?$skip=2147483647&$inlinecount=allpages`, LIGHT);
    assert.deepEqual([far.json['odata.count'], far.json.value, far.json['odata.nextLink']], ['7', [], undefined]);
    assertError(await get(`${base}/Tasks?$skip=99999999999`, LIGHT), 400);
    assertError(await get(`${base}/Tasks?$top=-1`, LIGHT), 400);
    assertError(await get(`${base}/Tasks?$orderby=Project`, LIGHT), 400, "No property 'Project' exists in type 'ReportingData.Task' at position 0.");
    assertError(await get(`${base}/Tasks?$orderby=Project/ProjectName`, LIGHT), 400);
    assertError(await get(`${base}/Tasks?$orderby=TaskName sideways`, LIGHT), 400);
    assertError(await get(`${base}/Tasks?$select=Project/ProjectName`, LIGHT), 400, /Only properties of the entity/);
    assertError(await get(`${base}/Tasks?$select=TaskName,,TaskIndex`, LIGHT), 400);
    for (const filter of ['year(TaskName) eq 2016', "startswith(TaskIndex,'a')", "length(TaskName) gt 'a'", 'round(TaskIndex) eq 1', "TaskId eq 'abc'", 'TaskName', 'not TaskName', 'Project/ProjectName eq 1']) {
      assertError(await get(`${base}/Tasks?$filter=${encodeURIComponent(filter)}`, LIGHT), 400);
    }
    const long = Array.from({ length: 20_000 }, (_, i) => `TaskName eq 'a${i}'`).join(' or ');
    assertError(await get(`${base}/Tasks?$filter=${encodeURIComponent(long)}`, LIGHT), 400, 'The query is too complex.');
  });

  it('one entity or property: collection options are 400, $filter on an entity decides whether it is there', async () => {
    const one = `${base}/Projects(guid'${P1}')`;
    for (const option of ['$top=1', '$skip=1', '$orderby=ProjectName', '$inlinecount=allpages', "$skiptoken=guid'" + P1 + "'"]) {
      assertError(await get(`${one}?${option}`, LIGHT), 400, /cannot be applied to the requested resource/);
    }
    assertError(await get(`${one}/ProjectName?$filter=ProjectCost gt 1`, LIGHT), 400, 'Query option $filter cannot be applied to the requested resource.');
    assert.equal((await get(`${one}?$filter=ProjectCost gt 1&$select=ProjectCost`, LIGHT)).json.ProjectCost, '1200.500000');
    assertError(await get(`${one}?$filter=ProjectCost gt 10000`, LIGHT), 404);
    assertError(await get(`${one}?$filter=Nope eq 1`, LIGHT), 400, /No property 'Nope'/);
  });

  it('errors follow $format=json even when the query does not parse', async () => {
    const res = await get(`${base}/Tasks?$filter=${encodeURIComponent('bad bad')}&$format=json`);
    assertError(res, 400, 'Bad Request - Error in query syntax.');
    const verbose = await get(`${base}/Projekts?$format=${encodeURIComponent(VERBOSE)}`);
    assert.equal(verbose.status, 404);
    assert.equal(verbose.json.error.message.value, "Resource not found for the segment 'Projekts'.");
  });

  it('next links round-trip $filter values with & # + % and quotes, and $select with spaces, in both JSON formats', async () => {
    const filter = `TaskName eq '${TRICKY.replaceAll("'", "''")}' or TaskIndex ge 1`;
    const url = `${base}/Tasks?$select=TaskName,%20TaskId&$filter=${encodeURIComponent(filter)}`;
    for (const accept of [LIGHT, VERBOSE]) {
      const { rows, pages, links } = await walk(url, accept);
      assert.equal(pages, 4);
      assert.deepEqual(rows.map((r) => r.TaskId), tasks.map((t) => t.TaskId));
      for (const link of links) {
        const query = new URL(link).searchParams;
        assert.equal(query.get('$filter'), filter, link);
        assert.equal(query.get('$select'), 'TaskName, TaskId', link);
      }
    }
    const tricky = await get(`${base}/Tasks?$select=TaskName&$filter=${encodeURIComponent(`TaskName eq '${TRICKY.replaceAll("'", "''")}'`)}`, LIGHT);
    assert.deepEqual(tricky.json.value.map((r: any) => r.TaskName), [TRICKY, TRICKY]);
  });

  it('paging: a nullable sort descending with $top, $skip and $inlinecount gives the same rows as one sorted list', async () => {
    // The order SQL Server gives: nulls last descending, the key (ProjectId, TaskId) breaking ties.
    const byName = [...tasks].sort((a, b) => (a.TaskName === b.TaskName ? (a.TaskId < b.TaskId ? -1 : 1)
      : a.TaskName === null ? 1 : b.TaskName === null ? -1 : b.TaskName.toLowerCase() < a.TaskName.toLowerCase() ? -1 : 1));
    const { rows, counts, links } = await walk(`${base}/Tasks?$select=TaskId&$orderby=TaskName desc&$top=5&$skip=1&$inlinecount=allpages`);
    assert.deepEqual(rows.map((r) => r.TaskId), byName.slice(1, 6).map((t) => t.TaskId));
    assert.deepEqual(counts, ['7', '7', '7'], 'every page carries the count');
    assert.deepEqual(links.map((l) => new URL(l).searchParams.get('$top')), ['3', '1']);
    assert.ok(links.every((l) => !new URL(l).searchParams.has('$skip')), 'the skip is used up');
    // Two nullable sorts, mixed directions, to the end.
    const dates = await walk(`${base}/Tasks?$select=TaskId,TaskFinishDate&$orderby=TaskFinishDate desc,TaskName`);
    assert.equal(new Set(dates.rows.map((r) => r.TaskId)).size, 7);
    assert.deepEqual(dates.rows.slice(4).map((r) => r.TaskFinishDate), [null, null, null]);
  });

  it('paging on a decimal with more than six places: the skip token keeps every digit', async () => {
    const { rows, links } = await walk(`${base}/Assignments?$select=AssignmentId,AssignmentCost&$orderby=AssignmentCost`);
    assert.deepEqual(rows.map((r) => r.AssignmentId), Array.from({ length: 9 }, (_, i) => T(108 - i)));
    assert.ok(links[0]!.includes('$skiptoken=0.1234562M,'), links[0]);
  });

  it('writes Edm.Double as 3.0, .NET\'s minimum and maximum dates as they are, and odd strings safely', async () => {
    const risk = await get(`${base}/Risks(ProjectId=guid'${P1}',RiskId=guid'${T(100)}')?$select=Cost`, LIGHT);
    assert.ok(risk.text.includes('"Cost":3.0'), risk.text);
    const project = await get(`${base}/Projects(guid'${P1}')?$select=ProjectName,ProjectStartDate,ProjectFinishDate`, LIGHT);
    assert.equal(project.json.ProjectStartDate, '/Date(-62135596800000)/');
    assert.equal(project.json.ProjectFinishDate, `/Date(${Date.UTC(2016, 5, 30, 23, 59, 59, 999)})/`, 'truncated, not rounded into the next day');
    assert.equal(project.json.ProjectName, HOSTILE);
    const atom = await get(`${base}/Projects(guid'${P1}')?$select=ProjectName,ProjectStartDate`);
    assert.ok(atom.text.includes('<d:ProjectName>Apollo &amp; &lt;Co&gt; ]]&gt; "q" \uFFFD end</d:ProjectName>'), atom.text);
    assert.ok(atom.text.includes('<d:ProjectStartDate m:type="Edm.DateTime">0001-01-01T00:00:00</d:ProjectStartDate>'), atom.text);
    assert.doesNotMatch(atom.text, /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/); // eslint-disable-line no-control-regex
    const feed = await get(`${base}/Tasks?$select=TaskName&$filter=${encodeURIComponent("TaskName ne 'x'")}`);
    assert.match(feed.text, /<link rel="next" href="[^"<]*\$filter=TaskName%20ne%20'x'&amp;\$skiptoken=/);
  });
});

describe('ProjectData tenant files: custom field names', () => {
  it('refuses a custom field name the feed could not carry (Atom element, $metadata property)', async () => {
    const seed = fixture();
    (seed.projectData['/sites/pwa'].Projects[1] as Record<string, unknown>)['Project Owner'] = 'Olivia';
    await assert.rejects(startTestServer({ seed }), /'Project Owner' cannot be a custom field name.*ProjectOwner/);
  });
});
