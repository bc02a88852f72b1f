import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtInSet, ENTITY_SETS } from '../../src/domain/projectdata/catalogue.ts';
import { writeMetadata } from '../../src/fronts/projectdata/metadata.ts';
import { writeAtomEntry, writeAtomFeed, writeAtomProperty, writeServiceDocument, writeXmlError } from '../../src/fronts/projectdata/atom.ts';
import { keyPredicate } from '../../src/fronts/projectdata/keys.ts';
import type { PdEntitySet, PdProperty, PdRow } from '../../src/domain/projectdata/model.ts';
import { all, parseXml } from '../helpers/xml.ts';


test('the XML checker rejects what it should', () => {
  assert.throws(() => parseXml('<a><b></a>'), /mismatched/);
  assert.throws(() => parseXml('<a>x & y</a>'), /bare &/);
  assert.throws(() => parseXml('<a x="1" x="2" />'), /duplicate/);
  assert.throws(() => parseXml('<m:a />'), /undeclared prefix m/);
  assert.throws(() => parseXml('<a x="<" />'), /< in text/);
  assert.throws(() => parseXml('<a /><b />'), /after the root/);
  assert.equal(parseXml('<?xml version="1.0"?><a xmlns:m="u"><m:b c="&quot;&#x41;" />t&lt;</a>').children[0]!.attrs.c, '"A');
});

// ---- $metadata

test('$metadata: well-formed EDMX naming every entity set and type, with consistent associations', () => {
  const xml = writeMetadata(ENTITY_SETS);
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="utf-8"?><edmx:Edmx Version="1.0" xmlns:edmx="http://schemas.microsoft.com/ado/2007/06/edmx">'
    + '<edmx:DataServices m:DataServiceVersion="3.0" m:MaxDataServiceVersion="3.0" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata">'
    + '<Schema Namespace="ReportingData" '), xml.slice(0, 400));
  const root = parseXml(xml);
  const [types, container] = all(root, 'Schema');
  assert.equal(types!.attrs.Namespace, 'ReportingData');
  assert.equal(container!.attrs.Namespace, 'Microsoft.Office.Project.Server');
  const entityContainer = all(container!, 'EntityContainer')[0]!;
  assert.deepEqual(entityContainer.attrs, { Name: 'ReportingData', 'm:IsDefaultEntityContainer': 'true' });

  const entitySets = all(entityContainer, 'EntitySet').map((e) => `${e.attrs.Name}:${e.attrs.EntityType}`);
  assert.deepEqual(entitySets, ENTITY_SETS.map((s) => `${s.name}:ReportingData.${s.entityType}`));
  const entityTypes = all(types!, 'EntityType');
  assert.deepEqual(entityTypes.map((t) => t.attrs.Name), ENTITY_SETS.map((s) => s.entityType));

  // Keys, properties (Nullable="false" on keys only), navigations whose roles belong to their association.
  const associations = new Map(all(types!, 'Association').map((a) => [a.attrs.Name!, all(a, 'End')]));
  for (const set of ENTITY_SETS) {
    const type = entityTypes.find((t) => t.attrs.Name === set.entityType)!;
    assert.deepEqual(all(type, 'PropertyRef').map((r) => r.attrs.Name), set.key);
    assert.deepEqual(all(type, 'Property').map((p) => p.attrs.Name), set.properties.map((p) => p.name));
    for (const p of all(type, 'Property')) assert.equal(p.attrs.Nullable, set.key.includes(p.attrs.Name!) ? 'false' : undefined, p.attrs.Name);
    for (const nav of all(type, 'NavigationProperty')) {
      const ends = associations.get(nav.attrs.Relationship!.replace(/^ReportingData\./, ''));
      assert.ok(ends, `${set.name}.${nav.attrs.Name}: no association ${nav.attrs.Relationship}`);
      const from = ends.find((e) => e.attrs.Role === nav.attrs.FromRole);
      const to = ends.find((e) => e.attrs.Role === nav.attrs.ToRole);
      assert.equal(from?.attrs.Type, `ReportingData.${set.entityType}`, `${set.name}.${nav.attrs.Name} FromRole`);
      const catalogueNav = set.navigations.find((n) => n.name === nav.attrs.Name)!;
      assert.equal(to?.attrs.Type, `ReportingData.${builtInSet(catalogueNav.target)!.entityType}`);
      assert.equal(to?.attrs.Multiplicity, catalogueNav.many ? '*' : '0..1', `${set.name}.${nav.attrs.Name} multiplicity`);
    }
  }
  const associationSets = all(entityContainer, 'AssociationSet');
  assert.equal(associationSets.length, associations.size);
  for (const s of associationSets) assert.ok(associations.has(s.attrs.Association!.replace(/^ReportingData\./, '')), s.attrs.Name);

  // The reference's own examples, verbatim.
  assert.ok(xml.includes('<NavigationProperty Name="Tasks" Relationship="ReportingData.Project_Tasks_Task_Project" ToRole="Task_Project" FromRole="Project_Tasks" />'));
  assert.ok(xml.includes('<AssociationSet Name="Relation_Projects_Tasks_Tasks_Project_Tasks_Project_Projects_Tasks" Association="ReportingData.Project_Tasks_Task_Project">'
    + '<End Role="Project_Tasks" EntitySet="Projects" /><End Role="Task_Project" EntitySet="Tasks" /></AssociationSet>'));
  assert.ok(xml.includes('<Association Name="TaskBaseline_Project"><End Type="ReportingData.TaskBaseline" Role="TaskBaseline" Multiplicity="*" />'
    + '<End Type="ReportingData.Project" Role="Project" Multiplicity="0..1" /></Association>'));
  assert.ok(xml.includes('<Property Name="ProjectId" Type="Edm.Guid" Nullable="false" />'));
  assert.ok(xml.includes('<Property Name="ProjectCost" Type="Edm.Decimal" />'), 'no Precision/Scale, as the reference shows');
});

test('$metadata: custom properties are written like any other, escaped; navigations to absent sets are left out', () => {
  const projects = builtInSet('Projects')!;
  const tasks = builtInSet('Tasks')!;
  const custom: PdProperty[] = [{ name: 'Sponsor', type: 'Edm.String', nullable: true, custom: true }, { name: 'R&D"Cost', type: 'Edm.Decimal', nullable: true, custom: true }];
  const xml = writeMetadata([{ ...projects, properties: [...projects.properties, ...custom] }, tasks]);
  const root = parseXml(xml);
  const project = all(root, 'EntityType').find((t) => t.attrs.Name === 'Project')!;
  assert.deepEqual(all(project, 'Property').slice(-2).map((p) => [p.attrs.Name, p.attrs.Type]), [['Sponsor', 'Edm.String'], ['R&D"Cost', 'Edm.Decimal']]);
  assert.deepEqual(all(project, 'NavigationProperty').map((n) => n.attrs.Name), ['Tasks'], 'only the navigation whose target is present');
  assert.deepEqual(all(root, 'Association').map((a) => a.attrs.Name), ['Project_Tasks_Task_Project']);
  const ends = all(all(root, 'Association')[0]!, 'End').map((e) => `${e.attrs.Role}:${e.attrs.Multiplicity}`);
  assert.deepEqual(ends, ['Project_Tasks:0..1', 'Task_Project:*']);
});

// ---- Atom

const BASE = 'http://contoso/sites/pwa/_api/ProjectData/';
const P1 = '263fc8d7-427c-e111-92fc-00155d3ba208';
const T1 = '3631bf8b-427c-e111-92fc-00155d3ba208';
const UPDATED = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
const NS = 'xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"';

test('service document lists every set, in order', () => {
  const names = ENTITY_SETS.map((s) => s.name);
  const xml = writeServiceDocument(BASE, names);
  assert.ok(xml.startsWith(`<?xml version="1.0" encoding="utf-8"?><service xml:base="${BASE}" xmlns="http://www.w3.org/2007/app" xmlns:atom="http://www.w3.org/2005/Atom">`
    + '<workspace><atom:title>Default</atom:title><collection href="Projects"><atom:title>Projects</atom:title></collection>'
    + '<collection href="ProjectBaselines"><atom:title>ProjectBaselines</atom:title></collection>'), xml.slice(0, 500));
  const collections = all(parseXml(xml), 'collection');
  assert.deepEqual(collections.map((c) => c.attrs.href), names);
  assert.deepEqual(collections.map((c) => c.children[0]!.text), names);
});

test('Atom feed, exact: composite key, null, negative-epoch date, decimal, boolean, escaping, count, next link', () => {
  const tasks = builtInSet('Tasks')!;
  const wanted = ['ProjectId', 'TaskId', 'ParentTaskName', 'TaskBaselineFinishDate', 'TaskCost', 'TaskFinishDate', 'TaskIndex', 'TaskIsMilestone', 'TaskName'];
  const selected = tasks.properties.filter((p) => wanted.includes(p.name));
  assert.deepEqual(selected.map((p) => p.name), wanted, 'declaration order');
  const navigations = tasks.navigations.filter((n) => n.name === 'Assignments' || n.name === 'Project');
  const row: PdRow = {
    ProjectId: P1, TaskId: T1, ParentTaskName: null, TaskBaselineFinishDate: null, TaskCost: 1200.5,
    TaskFinishDate: -86_400_000, TaskIndex: 1, TaskIsMilestone: false, TaskName: `Design <&"'> ]]>`,
  };
  const next = `${BASE}Tasks?$skiptoken=guid'${P1}',guid'${T1}'&$top=5`;
  const xml = writeAtomFeed({ baseUrl: BASE, set: tasks, rows: [row], selected, navigations, updated: UPDATED, count: 2, nextLink: next });
  const key = `ProjectId=guid'${P1}',TaskId=guid'${T1}'`;
  assert.equal(xml,
    `<?xml version="1.0" encoding="utf-8"?><feed xml:base="${BASE}" ${NS}>`
    + `<id>${BASE}Tasks</id><title type="text">Tasks</title><updated>2026-01-02T03:04:05Z</updated><link rel="self" title="Tasks" href="Tasks" />`
    + '<m:count>2</m:count>'
    + `<entry><id>${BASE}Tasks(${key})</id>`
    + '<category term="ReportingData.Task" scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme" />'
    + `<link rel="edit" title="Task" href="Tasks(${key})" />`
    + `<link rel="http://schemas.microsoft.com/ado/2007/08/dataservices/related/Assignments" type="application/atom+xml;type=feed" title="Assignments" href="Tasks(${key})/Assignments" />`
    + `<link rel="http://schemas.microsoft.com/ado/2007/08/dataservices/related/Project" type="application/atom+xml;type=entry" title="Project" href="Tasks(${key})/Project" />`
    + '<title /><updated>2026-01-02T03:04:05Z</updated><author><name /></author>'
    + '<content type="application/xml"><m:properties>'
    + `<d:ProjectId m:type="Edm.Guid">${P1}</d:ProjectId><d:TaskId m:type="Edm.Guid">${T1}</d:TaskId>`
    + '<d:ParentTaskName m:null="true" />'
    + '<d:TaskBaselineFinishDate m:type="Edm.DateTime" m:null="true" />'
    + '<d:TaskCost m:type="Edm.Decimal">1200.500000</d:TaskCost>'
    + '<d:TaskFinishDate m:type="Edm.DateTime">1969-12-31T00:00:00</d:TaskFinishDate>'
    + '<d:TaskIndex m:type="Edm.Int32">1</d:TaskIndex>'
    + '<d:TaskIsMilestone m:type="Edm.Boolean">false</d:TaskIsMilestone>'
    + `<d:TaskName>Design &lt;&amp;"'&gt; ]]&gt;</d:TaskName>`
    + '</m:properties></content></entry>'
    + `<link rel="next" href="${BASE}Tasks?$skiptoken=guid'${P1}',guid'${T1}'&amp;$top=5" />`
    + '</feed>');
  const feed = parseXml(xml);
  const props = all(feed, 'm:properties')[0]!.children;
  assert.equal(props.find((p) => p.name === 'd:TaskName')!.text, `Design <&"'> ]]>`, 'the text round-trips');
  assert.equal(all(feed, 'link').at(-1)!.attrs.href, next);
});

test('Atom feed below a navigation: id, title and self link name the navigation; no count or next link unless asked', () => {
  const stages = builtInSet('ProjectWorkflowStageDataSet')!;
  const feedPath = `Projects(guid'${P1}')/StagesInfo`;
  const xml = writeAtomFeed({ baseUrl: BASE, set: stages, rows: [], selected: stages.properties, updated: UPDATED, feedPath });
  assert.equal(xml, `<?xml version="1.0" encoding="utf-8"?><feed xml:base="${BASE}" ${NS}><id>${BASE}${feedPath}</id><title type="text">StagesInfo</title>`
    + `<updated>2026-01-02T03:04:05Z</updated><link rel="self" title="StagesInfo" href="${feedPath}" /></feed>`);
  parseXml(xml);
});

test('Atom entry: single key, every navigation by default, standalone root', () => {
  const projects = builtInSet('Projects')!;
  const selected = projects.properties.filter((p) => ['ProjectId', 'ProjectName', 'ProjectPercentCompleted', 'ProjectStartDate'].includes(p.name));
  const row: PdRow = { ProjectId: P1, ProjectName: 'Apollo', ProjectPercentCompleted: 40, ProjectStartDate: Date.UTC(2016, 5, 1, 8) };
  const xml = writeAtomEntry({ baseUrl: BASE, set: projects, row, selected, updated: UPDATED });
  assert.ok(xml.startsWith(`<?xml version="1.0" encoding="utf-8"?><entry xml:base="${BASE}" ${NS}><id>${BASE}Projects(guid'${P1}')</id>`), xml.slice(0, 300));
  assert.ok(xml.includes(`<link rel="edit" title="Project" href="Projects(guid'${P1}')" />`));
  assert.ok(xml.includes('<d:ProjectName>Apollo</d:ProjectName><d:ProjectPercentCompleted m:type="Edm.Int16">40</d:ProjectPercentCompleted>'
    + '<d:ProjectStartDate m:type="Edm.DateTime">2016-06-01T08:00:00</d:ProjectStartDate>'));
  const entry = parseXml(xml);
  const related = all(entry, 'link').filter((l) => l.attrs.rel!.includes('/related/'));
  assert.deepEqual(related.map((l) => l.attrs.title), projects.navigations.map((n) => n.name));
  assert.ok(related.every((l) => l.attrs.type === 'application/atom+xml;type=feed'), "a project's navigations are all collections");
});

test('key predicates: single, composite, integer, datetime and string keys', () => {
  assert.equal(keyPredicate(builtInSet('Projects')!, { ProjectId: P1 }), `guid'${P1}'`);
  assert.equal(keyPredicate(builtInSet('Assignments')!, { ProjectId: P1, AssignmentId: T1 }), `AssignmentId=guid'${T1}',ProjectId=guid'${P1}'`);
  assert.equal(keyPredicate(builtInSet('TaskBaselines')!, { ProjectId: P1, TaskId: T1, BaselineNumber: 0 }), `ProjectId=guid'${P1}',TaskId=guid'${T1}',BaselineNumber=0`);
  assert.equal(keyPredicate(builtInSet('TimeSet')!, { TimeByDay: Date.UTC(2016, 5, 30) }), "datetime'2016-06-30T00:00:00'");
  const byName: PdEntitySet = { name: 'People', entityType: 'Person', key: ['Name'], properties: [{ name: 'Name', type: 'Edm.String', nullable: false }], navigations: [], defaultPageSize: 10 };
  assert.equal(keyPredicate(byName, { Name: "O'Neil" }), "'O''Neil'");
});

test('a single property document and the XML error body', () => {
  const cost: PdProperty = { name: 'TestResDur', type: 'Edm.Decimal', nullable: true, custom: true };
  const dm = 'xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"';
  assert.equal(writeAtomProperty(cost, 24), `<?xml version="1.0" encoding="utf-8"?><d:TestResDur ${dm} m:type="Edm.Decimal">24.000000</d:TestResDur>`);
  assert.equal(writeAtomProperty(cost, null), `<?xml version="1.0" encoding="utf-8"?><d:TestResDur ${dm} m:type="Edm.Decimal" m:null="true" />`);
  parseXml(writeAtomProperty({ name: 'ProjectName', type: 'Edm.String', nullable: true }, 'a & b'));
  const error = writeXmlError("Resource not found for the segment 'Nope<'.");
  assert.equal(error, '<?xml version="1.0" encoding="utf-8"?><m:error xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata">'
    + "<m:code /><m:message xml:lang=\"en-US\">Resource not found for the segment 'Nope&lt;'.</m:message></m:error>");
  assert.equal(all(parseXml(error), 'm:message')[0]!.text, "Resource not found for the segment 'Nope<'.");
});

test('characters XML cannot carry never break a document', () => {
  const tasks = builtInSet('Tasks')!;
  const name = tasks.properties.find((p) => p.name === 'TaskName')!;
  const xml = writeAtomFeed({ baseUrl: BASE, set: tasks, rows: [{ ProjectId: P1, TaskId: T1, TaskName: 'a\u0001b\r\nc\uD800' }], selected: [name], navigations: [], updated: UPDATED });
  assert.equal(all(parseXml(xml), 'd:TaskName')[0]!.text, 'a\uFFFDb\r\nc\uFFFD');
});
