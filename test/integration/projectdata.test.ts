// The ProjectData feed over HTTP (src/projectdata/): the demo PWA and a small fixture, read
// with plain fetch so every byte of the date encoding can be checked. Runs on both backends.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, useTestServer, type TestServer } from '../helpers/server.ts';
import { all, parseXml } from '../helpers/xml.ts';
import { ENTITY_SETS } from '../../src/domain/projectdata/catalogue.ts';

const JSON_LIGHT = 'application/json';
const VERBOSE = 'application/json;odata=verbose';
const PASSWORDS: Record<string, string> = {
  'alice@contoso.onmicrosoft.com': 'alice-demo-pass', 'bob@contoso.onmicrosoft.com': 'bob-demo-pass',
  'carol@contoso.onmicrosoft.com': 'carol-demo-pass', 'dave@contoso.onmicrosoft.com': 'dave-demo-pass',
};
const basic = (upn: string) => `Basic ${Buffer.from(`${upn}:${PASSWORDS[upn]}`).toString('base64')}`;

interface Res { status: number; headers: Headers; text: string; json: any }

async function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Res> {
  const res = await fetch(url, { method, headers });
  const text = await res.text();
  let json: unknown;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, headers: res.headers, text, json };
}

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const T = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A PWA with the cases the date encoding must get right: the seed's date, a null, a date before 1970. */
function fixture(dates: 'online' | 'onprem', extra: Record<string, unknown> = {}) {
  return {
    tenant: { name: 'fabrikam' },
    users: [
      { upn: 'olivia@fabrikam.onmicrosoft.com', displayName: 'Olivia Owner', password: 'pw-olivia' },
    ],
    sites: [{ url: '/sites/pwa', title: 'PWA', owners: ['olivia@fabrikam.onmicrosoft.com'] }],
    projectData: {
      '/sites/pwa': {
        dates,
        pageSizes: { Tasks: 2 },
        Projects: [
          { ProjectId: P1, ProjectName: 'Apollo', ProjectStartDate: '2016-06-01T08:00:00Z', ProjectFinishDate: '2016-06-30T17:00:00Z', ProjectCost: 1200.5, ProjectWork: 16, ProjectPercentCompleted: 40, Sponsor: 'NASA' },
          { ProjectId: P2, ProjectName: 'Mercury', ProjectStartDate: '1959-04-09T00:00:00Z', ProjectFinishDate: null, ProjectCost: 0 },
        ],
        Tasks: [
          { ProjectId: P1, TaskId: T(1), TaskName: 'Design', TaskIndex: 1, TaskStartDate: '2016-06-01T08:00:00Z', TaskFinishDate: '2016-06-30T00:00:00Z', TaskBaselineFinishDate: '2016-06-28T00:00:00Z', TaskPercentCompleted: 50 },
          { ProjectId: P1, TaskId: T(2), TaskName: 'Build', TaskIndex: 2, TaskFinishDate: '2016-07-15T17:00:00Z', TaskBaselineFinishDate: null, TaskPercentCompleted: 0 },
          { ProjectId: P1, TaskId: T(3), TaskName: "O'Brien review", TaskIndex: 3, TaskFinishDate: '2016-06-10T17:00:00Z' },
          { ProjectId: P2, TaskId: T(4), TaskName: 'Launch', TaskIndex: 1, TaskFinishDate: '1961-05-05T14:34:00Z' },
          { ProjectId: P2, TaskId: T(5), TaskName: 'Splashdown', TaskIndex: 2, TaskFinishDate: null },
        ],
        ...extra,
      },
    },
  };
}

describe('ProjectData: date encoding, exact raw text', () => {
  let online: TestServer;
  let onprem: TestServer;
  before(async () => {
    online = await startTestServer({ seed: fixture('online') });
    onprem = await startTestServer({ seed: fixture('onprem') });
  });
  after(async () => { await online?.close(); await onprem?.close(); });

  const design = (s: TestServer) => `${s.site('/sites/pwa')}/_api/ProjectData/Tasks(ProjectId=guid'${P1}',TaskId=guid'${T(1)}')?$select=TaskName,TaskFinishDate,TaskBaselineFinishDate`;

  it('Project Online: "\\/Date(ms)\\/" with escaped solidi for Accept: application/json and for verbose', async () => {
    const light = await get(design(online), { Accept: JSON_LIGHT });
    assert.equal(light.status, 200, light.text);
    assert.ok(light.text.includes(String.raw`"TaskFinishDate":"\/Date(1467244800000)\/"`), light.text);
    assert.ok(light.text.includes(String.raw`"TaskBaselineFinishDate":"\/Date(1467072000000)\/"`), light.text);
    assert.equal(light.json.TaskFinishDate, '/Date(1467244800000)/');
    const verbose = await get(design(online), { Accept: VERBOSE });
    assert.ok(verbose.text.includes(String.raw`"TaskFinishDate":"\/Date(1467244800000)\/"`), verbose.text);
    assert.equal(verbose.json.d.TaskFinishDate, '/Date(1467244800000)/');
  });

  it('on-premises: ISO 8601 without a zone, in both JSON formats', async () => {
    for (const accept of [JSON_LIGHT, VERBOSE]) {
      const res = await get(design(onprem), { Accept: accept });
      assert.ok(res.text.includes('"TaskFinishDate":"2016-06-30T00:00:00"'), res.text);
      assert.ok(res.text.includes('"TaskBaselineFinishDate":"2016-06-28T00:00:00"'), res.text);
    }
  });

  it('null dates stay null and dates before 1970 are negative milliseconds', async () => {
    const res = await get(`${online.site('/sites/pwa')}/_api/ProjectData/Projects(guid'${P2}')?$select=ProjectStartDate,ProjectFinishDate`, { Accept: VERBOSE });
    assert.ok(res.text.includes(String.raw`"ProjectStartDate":"\/Date(-338688000000)\/"`), res.text);
    assert.ok(res.text.includes('"ProjectFinishDate":null'), res.text);
    const iso = await get(`${onprem.site('/sites/pwa')}/_api/ProjectData/Projects(guid'${P2}')?$select=ProjectStartDate,ProjectFinishDate`, { Accept: JSON_LIGHT });
    assert.ok(iso.text.includes('"ProjectFinishDate":null,"ProjectStartDate":"1959-04-09T00:00:00"'), iso.text);
  });

  it('verbose entries: __metadata with id, uri and ReportingData type (no etag), six-decimal strings, custom fields', async () => {
    const res = await get(`${online.site('/sites/pwa')}/_api/ProjectData/Projects?$filter=ProjectName eq 'Apollo'`, { Accept: VERBOSE });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('content-type'), 'application/json;odata=verbose;charset=utf-8');
    const [apollo] = res.json.d.results;
    const uri = `${online.site('/sites/pwa')}/_api/ProjectData/Projects(guid'${P1}')`;
    assert.deepEqual(apollo.__metadata, { id: uri, uri, type: 'ReportingData.Project' });
    assert.equal(apollo.ProjectCost, '1200.500000');
    assert.equal(apollo.ProjectWork, '16.000000');
    assert.equal(apollo.ProjectPercentCompleted, 40);
    assert.equal(apollo.Sponsor, 'NASA');
    assert.equal(apollo.ProjectActualCost, null);
    assert.deepEqual(apollo.Tasks, { __deferred: { uri: `${uri}/Tasks` } });
  });

  it('JSON light: odata.metadata, value, odata.count as a string', async () => {
    const res = await get(`${online.site('/sites/pwa')}/_api/ProjectData/Projects?$select=ProjectId,ProjectName&$inlinecount=allpages&$orderby=ProjectName`, { Accept: JSON_LIGHT });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json['odata.metadata'], `${online.site('/sites/pwa')}/_api/ProjectData/$metadata#Projects&$select=ProjectId,ProjectName`);
    assert.equal(res.json['odata.count'], '2');
    assert.deepEqual(res.json.value, [{ ProjectId: P1, ProjectName: 'Apollo' }, { ProjectId: P2, ProjectName: 'Mercury' }]);
  });
});

describe('ProjectData: queries, navigation, paging', () => {
  const spemu = useTestServer(() => ({ seed: fixture('online') }));
  let base: string;
  before(async () => {
    base = `${spemu.server.site('/sites/pwa')}/_api/ProjectData`;
  });

  const names = (res: Res) => res.json.value.map((r: { TaskName: string }) => r.TaskName);

  it('$filter on dates (datetime literals) and GUIDs, with $orderby', async () => {
    const res = await get(`${base}/Tasks?$select=TaskName&$filter=TaskFinishDate lt datetime'2016-07-01T00:00:00' and ProjectId eq guid'${P1}'&$orderby=TaskFinishDate desc`, { Accept: JSON_LIGHT });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(names(res), ['Design', "O'Brien review"]);
    const nulls = await get(`${base}/Tasks?$select=TaskName&$filter=TaskFinishDate eq null`, { Accept: JSON_LIGHT });
    assert.deepEqual(names(nulls), ['Splashdown']);
    const old = await get(`${base}/Tasks?$select=TaskName&$filter=year(TaskFinishDate) lt 1970`, { Accept: JSON_LIGHT });
    assert.deepEqual(names(old), ['Launch']);
    const quoted = await get(`${base}/Tasks?$select=TaskName&$filter=TaskName eq 'O''Brien review'`, { Accept: JSON_LIGHT });
    assert.deepEqual(names(quoted), ["O'Brien review"]);
  });

  it('server-driven paging: a page of the set\'s size, then __next / odata.nextLink to the end', async () => {
    for (const [accept, rowsOf, nextOf] of [
      [JSON_LIGHT, (j: any) => j.value, (j: any) => j['odata.nextLink']],
      [VERBOSE, (j: any) => j.d.results, (j: any) => j.d.__next],
    ] as const) {
      const seen: string[] = [];
      let url: string | undefined = `${base}/Tasks?$select=TaskId,TaskName&$orderby=TaskFinishDate`;
      let pages = 0;
      while (url) {
        const res = await get(url, { Accept: accept });
        assert.equal(res.status, 200, res.text);
        const rows = rowsOf(res.json);
        assert.ok(rows.length <= 2);
        seen.push(...rows.map((r: any) => r.TaskName));
        url = nextOf(res.json);
        if (url) assert.ok(url.startsWith(`${base}/Tasks?`) && url.includes('$skiptoken='), url);
        pages++;
      }
      assert.equal(pages, 3);
      // Nulls first ascending, as SQL Server sorts them.
      assert.deepEqual(seen, ['Splashdown', 'Launch', "O'Brien review", 'Design', 'Build']);
    }
  });

  it('$top above the page size pages too and stops at $top; $skip skips', async () => {
    const first = await get(`${base}/Tasks?$select=TaskName&$top=3&$orderby=TaskName`, { Accept: JSON_LIGHT });
    assert.deepEqual(names(first), ['Build', 'Design']);
    const next = await get(first.json['odata.nextLink'], { Accept: JSON_LIGHT });
    assert.deepEqual(names(next), ['Launch']);
    assert.equal(next.json['odata.nextLink'], undefined);
    const skipped = await get(`${base}/Tasks?$select=TaskName&$top=1&$skip=1&$orderby=TaskName`, { Accept: JSON_LIGHT });
    assert.deepEqual(names(skipped), ['Design']);
  });

  it('navigation, composite keys, properties, $value and $count', async () => {
    const tasks = await get(`${base}/Projects(guid'${P2}')/Tasks?$select=TaskName`, { Accept: JSON_LIGHT });
    assert.deepEqual(names(tasks), ['Launch', 'Splashdown']);
    const project = await get(`${base}/Tasks(ProjectId=guid'${P2}',TaskId=guid'${T(4)}')/Project?$select=ProjectName`, { Accept: JSON_LIGHT });
    assert.equal(project.json.ProjectName, 'Mercury');
    const name = await get(`${base}/Projects(guid'${P1}')/ProjectName`, { Accept: VERBOSE });
    assert.deepEqual(name.json, { d: { ProjectName: 'Apollo' } });
    const raw = await get(`${base}/Projects(guid'${P1}')/ProjectCost/$value`);
    assert.equal(raw.text, '1200.500000');
    const count = await get(`${base}/Tasks/$count?$filter=ProjectId eq guid'${P1}'`);
    assert.equal(count.text, '3');
    assert.match(count.headers.get('content-type') ?? '', /^text\/plain/);
    const localized = await get(`${spemu.server.site('/sites/pwa')}/_api/ProjectData/[en-US]/Projects/$count`);
    assert.equal(localized.text, '2');
  });

  it('$metadata is EDMX naming every entity set; the service document lists them', async () => {
    const metadata = await get(`${base}/$metadata`);
    assert.equal(metadata.status, 200);
    assert.match(metadata.headers.get('content-type') ?? '', /^application\/xml/);
    const edmx = parseXml(metadata.text);
    assert.equal(edmx.name, 'edmx:Edmx');
    const sets = all(edmx, 'EntitySet').map((e) => e.attrs.Name);
    assert.deepEqual(new Set(sets), new Set(ENTITY_SETS.map((s) => s.name)));
    const project = all(edmx, 'EntityType').find((e) => e.attrs.Name === 'Project')!;
    assert.ok(project.children.some((p) => p.name === 'Property' && p.attrs.Name === 'Sponsor'), 'the custom field is in the metadata');
    const service = await get(`${base}/`);
    assert.match(service.headers.get('content-type') ?? '', /^application\/atomsvc\+xml/);
    assert.ok(service.text.includes('<collection href="Projects">'), service.text.slice(0, 300));
    const json = await get(`${base}`, { Accept: VERBOSE });
    assert.ok(json.json.d.EntitySets.includes('Tasks'));
  });

  it('Atom when no Accept is sent', async () => {
    const res = await get(`${base}/Projects?$select=ProjectName`);
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/atom\+xml;type=feed/);
    assert.ok(res.text.includes('<d:ProjectName>Apollo</d:ProjectName>'), res.text);
  });

  it('errors: WCF DS bodies with the right status', async () => {
    const noSet = await get(`${base}/Projekts`, { Accept: VERBOSE });
    assert.equal(noSet.status, 404);
    assert.deepEqual(noSet.json, { error: { code: '', message: { lang: 'en-US', value: "Resource not found for the segment 'Projekts'." } } });
    const noKey = await get(`${base}/Projects(guid'${T(99)}')`, { Accept: JSON_LIGHT });
    assert.equal(noKey.status, 404);
    assert.ok(noKey.json['odata.error']);
    const badProperty = await get(`${base}/Tasks?$filter=Nope eq 1`, { Accept: JSON_LIGHT });
    assert.equal(badProperty.status, 400, badProperty.text);
    const badType = await get(`${base}/Tasks?$filter=TaskFinishDate eq 'tomorrow'`, { Accept: JSON_LIGHT });
    assert.equal(badType.status, 400, badType.text);
    const badToken = await get(`${base}/Tasks?$skiptoken=1`, { Accept: JSON_LIGHT });
    assert.equal(badToken.status, 400, badToken.text);
    const xml = await get(`${base}/Projekts`);
    assert.ok(xml.text.includes("<m:message xml:lang=\"en-US\">Resource not found for the segment 'Projekts'.</m:message>"), xml.text);
    assert.ok(!noSet.text.includes(' at ') || !noSet.text.includes('.ts:'), 'no stack trace');
  });

  it('is read-only: every write answers 405 with an error body and changes nothing', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'MERGE', 'DELETE']) {
      const res = await get(`${base}/Projects(guid'${P1}')`, { Accept: VERBOSE }, method);
      assert.equal(res.status, 405, method);
      assert.match(res.json.error.message.value, /read-only/);
    }
    const still = await get(`${base}/Projects/$count`);
    assert.equal(still.text, '2');
  });
});

describe('ProjectData: the demo PWA and its readers', () => {
  const spemu = useTestServer({ anonymousUser: undefined });

  const url = () => `${spemu.server.site('/sites/pwa')}/_api/ProjectData/Tasks?$filter=TaskName eq 'Design'&$select=TaskName,TaskFinishDate,TaskBaselineFinishDate`;

  it('the seed\'s date example: TaskFinishDate "\\/Date(1467244800000)\\/" for the owner', async () => {
    const res = await get(url(), { Accept: JSON_LIGHT, Authorization: basic('alice@contoso.onmicrosoft.com') });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.text.includes(String.raw`"TaskFinishDate":"\/Date(1467244800000)\/"`), res.text);
  });

  it('owners, members and the configured readers may read; others get 403, nobody 401', async () => {
    for (const upn of ['alice@contoso.onmicrosoft.com', 'bob@contoso.onmicrosoft.com', 'carol@contoso.onmicrosoft.com']) {
      const res = await get(url(), { Accept: JSON_LIGHT, Authorization: basic(upn) });
      assert.equal(res.status, 200, `${upn}: ${res.text}`);
    }
    const dave = await get(url(), { Accept: JSON_LIGHT, Authorization: basic('dave@contoso.onmicrosoft.com') });
    assert.equal(dave.status, 403, dave.text);
    assert.ok(dave.json['odata.error']);
    const nobody = await get(url(), { Accept: JSON_LIGHT });
    assert.equal(nobody.status, 401);
  });

  it('a site that is not a PWA has no ProjectData', async () => {
    const res = await get(`${spemu.server.site('/sites/dev')}/_api/ProjectData/Projects`, { Accept: VERBOSE, Authorization: basic('alice@contoso.onmicrosoft.com') });
    assert.equal(res.status, 404, res.text);
  });

  it('the demo has projects, tasks with finish and baseline finish dates, resources and assignments', async () => {
    const auth = { Accept: JSON_LIGHT, Authorization: basic('alice@contoso.onmicrosoft.com') };
    const base = `${spemu.server.site('/sites/pwa')}/_api/ProjectData`;
    for (const set of ['Projects', 'Tasks', 'Resources', 'Assignments', 'TaskBaselines']) {
      const count = await get(`${base}/${set}/$count`, auth);
      assert.ok(Number(count.text) >= 2, `${set}: ${count.text}`);
    }
    const assignment = await get(`${base}/Assignments?$top=1&$select=AssignmentId,ProjectId,ResourceName`, auth);
    const a = assignment.json.value[0];
    const resource = await get(`${base}/Assignments(ProjectId=guid'${a.ProjectId}',AssignmentId=guid'${a.AssignmentId}')/Resource?$select=ResourceName`, auth);
    assert.equal(resource.json.ResourceName, a.ResourceName);
  });
});
