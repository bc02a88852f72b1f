// ProjectData's value conversions (src/projectdata/values.ts, keys.ts, json.ts) and its
// request grammar (request.ts) and format choice (format.ts): the exact raw text of dates in
// both flavours, decimals, literals and skip tokens.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decimalText, inferType, isoDateText, parseProjectDate, toPdValue } from '../../src/domain/projectdata/values.ts';
import { jsonValue, writeJsonError } from '../../src/fronts/projectdata/json.ts';
import { keyPredicate, literalText } from '../../src/fronts/projectdata/keys.ts';
import { builtInSet } from '../../src/domain/projectdata/catalogue.ts';
import { errorFormat, negotiateFormat } from '../../src/fronts/projectdata/format.ts';
import { isCustomName } from '../../src/domain/projectdata/rows.ts';
import { isProjectDataPath, parsePdRequest } from '../../src/fronts/projectdata/request.ts';
import { PdError } from '../../src/fronts/projectdata/errors.ts';
import { parseProjectDate as fromClient } from '../../src/client.ts';

const JUNE_30 = Date.UTC(2016, 5, 30); // 1467244800000, the seed's example

describe('parseProjectDate', () => {
  it('reads /Date(ms)/ with and without solidi, negative milliseconds and the offset form', () => {
    assert.equal(parseProjectDate('/Date(1467244800000)/')?.getTime(), JUNE_30);
    assert.equal(parseProjectDate('Date(1467244800000)')?.getTime(), JUNE_30);
    assert.equal(parseProjectDate('/Date(-86400000)/')?.toISOString(), '1969-12-31T00:00:00.000Z');
    // The offset says which zone the instant was shown in; the milliseconds are UTC already.
    assert.equal(parseProjectDate('/Date(1467244800000+0200)/')?.getTime(), JUNE_30);
    assert.equal(parseProjectDate('/Date(1467244800000-0530)/')?.getTime(), JUNE_30);
  });

  it('reads ISO 8601 with no zone as UTC, and honours Z and offsets', () => {
    assert.equal(parseProjectDate('2016-06-30T00:00:00')?.getTime(), JUNE_30);
    assert.equal(parseProjectDate('2016-06-30T00:00:00Z')?.getTime(), JUNE_30);
    assert.equal(parseProjectDate('2016-06-30T02:00:00+02:00')?.getTime(), JUNE_30);
    assert.equal(parseProjectDate('2016-06-30')?.getTime(), JUNE_30);
    assert.equal(parseProjectDate('2016-06-30T00:00:00.250')?.getTime(), JUNE_30 + 250);
  });

  it('refuses what is not a date', () => {
    for (const text of ['', 'soon', '2016-13-01', '2016-02-31T00:00:00', '2016-02-30T00:00:00Z', '2016-02-30T00:00:00+01:00', '/Date(abc)/', '1467244800000', '/Date(99999999999999999)/']) {
      assert.equal(parseProjectDate(text), undefined, text);
    }
  });

  it('reads years below 100 as written, and truncates .NET\'s seven fraction digits instead of rounding into the next day', () => {
    assert.equal(parseProjectDate('0001-01-01T00:00:00')?.toISOString(), '0001-01-01T00:00:00.000Z');
    assert.equal(parseProjectDate('0050-06-30')?.toISOString(), '0050-06-30T00:00:00.000Z');
    assert.equal(parseProjectDate('2016-06-30T23:59:59.9999999')?.toISOString(), '2016-06-30T23:59:59.999Z');
    assert.equal(parseProjectDate('9999-12-31T23:59:59.9999999')?.toISOString(), '9999-12-31T23:59:59.999Z');
    assert.equal(parseProjectDate('2016-06-30T00:00:00.029')?.getTime(), JUNE_30 + 29);
  });

  it('is the same function the spemu/client entry exports', () => {
    assert.equal(fromClient, parseProjectDate);
  });
});

describe('values on the wire', () => {
  it('writes Project Online dates as "\\/Date(ms)\\/" with escaped solidi, negative before 1970, null as null', () => {
    assert.equal(jsonValue('Edm.DateTime', JUNE_30, 'online'), String.raw`"\/Date(1467244800000)\/"`);
    assert.equal(JSON.parse(jsonValue('Edm.DateTime', JUNE_30, 'online')), '/Date(1467244800000)/');
    assert.equal(jsonValue('Edm.DateTime', Date.UTC(1969, 6, 20, 20, 17), 'online'), String.raw`"\/Date(-14182980000)\/"`);
    assert.equal(jsonValue('Edm.DateTime', null, 'online'), 'null');
  });

  it('writes on-premises dates as ISO 8601 without a zone, with milliseconds only when there are some', () => {
    assert.equal(jsonValue('Edm.DateTime', JUNE_30, 'onprem'), '"2016-06-30T00:00:00"');
    assert.equal(jsonValue('Edm.DateTime', JUNE_30 + 7, 'onprem'), '"2016-06-30T00:00:00.007"');
    assert.equal(isoDateText(-1), '1969-12-31T23:59:59.999');
    assert.equal(isoDateText(JUNE_30 + 310), '2016-06-30T00:00:00.31');
  });

  it('writes decimals as six-decimal strings and other numbers as JSON numbers', () => {
    assert.equal(jsonValue('Edm.Decimal', 16, 'online'), '"16.000000"');
    assert.equal(jsonValue('Edm.Decimal', 1200.5, 'online'), '"1200.500000"');
    assert.equal(decimalText(-0), '0.000000');
    assert.equal(jsonValue('Edm.Int16', 40, 'online'), '40');
    assert.equal(jsonValue('Edm.Int64', 40, 'online'), '"40"');
    assert.equal(jsonValue('Edm.Boolean', false, 'online'), 'false');
    assert.equal(jsonValue('Edm.String', 'a"b/c', 'online'), '"a\\"b/c"');
    // ODataLib writes a whole Edm.Double with `.0`, as spemu's SharePoint JSON does.
    assert.equal(jsonValue('Edm.Double', 3, 'online'), '3.0');
    assert.equal(jsonValue('Edm.Double', 0.5, 'online'), '0.5');
    assert.equal(jsonValue('Edm.Double', 1e21, 'online'), '1e+21');
  });

  it('types input values and says what is wrong', () => {
    assert.equal(toPdValue('Edm.Guid', 'CE3D0D65-3904-E211-96CD-00155D157123'), 'ce3d0d65-3904-e211-96cd-00155d157123');
    assert.equal(toPdValue('Edm.Decimal', '0.000000'), 0);
    assert.equal(toPdValue('Edm.DateTime', '/Date(1467244800000)/'), JUNE_30);
    assert.equal(toPdValue('Edm.Int16', 40), 40);
    assert.throws(() => toPdValue('Edm.Int16', 40000), /integer/);
    assert.throws(() => toPdValue('Edm.Guid', 'nope'), /GUID/);
    assert.throws(() => toPdValue('Edm.Boolean', 1), /true or false/);
    assert.throws(() => toPdValue('Edm.DateTime', '/Date(8000000000000000)/'), /between 0001-01-01 and 9999-12-31/);
    assert.equal(toPdValue('Edm.DateTime', '0001-01-01T00:00:00'), -62135596800000);
    assert.equal(inferType('2016-06-30T00:00:00Z'), 'Edm.DateTime');
    assert.equal(inferType('Engineering'), 'Edm.String');
    assert.equal(inferType(3), 'Edm.Decimal');
  });

  it('writes literals and key predicates as WCF DS does', () => {
    const tasks = builtInSet('Tasks')!;
    const row = { ProjectId: 'ce3d0d65-3904-e211-96cd-00155d157123', TaskId: '0a1b2c3d-0000-4000-8000-000000000001' };
    assert.equal(keyPredicate(tasks, row), "ProjectId=guid'ce3d0d65-3904-e211-96cd-00155d157123',TaskId=guid'0a1b2c3d-0000-4000-8000-000000000001'");
    assert.equal(keyPredicate(builtInSet('Projects')!, row), "guid'ce3d0d65-3904-e211-96cd-00155d157123'");
    assert.equal(literalText('Edm.DateTime', JUNE_30), "datetime'2016-06-30T00:00:00'");
    assert.equal(literalText('Edm.String', "O'Neil"), "'O''Neil'");
    assert.equal(literalText('Edm.Decimal', 1.5), '1.500000M');
    assert.equal(literalText('Edm.Int32', null), 'null');
    // A skip token names the row's exact value: a seventh decimal, or a double's exponent, is kept.
    assert.equal(literalText('Edm.Decimal', 0.1234567), '0.1234567M');
    assert.equal(literalText('Edm.Double', 1e21), '1e+21');
    assert.equal(literalText('Edm.Double', 3), '3.0');
  });

  it('writes errors in the verbose and light envelopes with an empty code', () => {
    assert.deepEqual(JSON.parse(writeJsonError('x', 'verbose')), { error: { code: '', message: { lang: 'en-US', value: 'x' } } });
    assert.deepEqual(JSON.parse(writeJsonError('x', 'light')), { 'odata.error': { code: '', message: { lang: 'en-US', value: 'x' } } });
  });
});

describe('requests', () => {
  it('recognises ProjectData paths in any case', () => {
    assert.equal(isProjectDataPath('ProjectData'), true);
    assert.equal(isProjectDataPath('projectdata/Projects'), true);
    assert.equal(isProjectDataPath('ProjectDataX'), false);
    assert.equal(isProjectDataPath('web/ProjectData'), false);
  });

  it('parses the locale segment, keys, navigation, $count and $value', () => {
    const r = parsePdRequest("ProjectData/[en-US]/Tasks(ProjectId=guid'ce3d0d65-3904-e211-96cd-00155d157123',TaskId=guid'0a1b2c3d-0000-4000-8000-000000000001')/Assignments/$count", '');
    assert.equal(r.locale, 'en-US');
    assert.equal(r.target.kind, 'resource');
    if (r.target.kind !== 'resource') return;
    assert.equal(r.target.count, true);
    assert.deepEqual(r.target.steps.map((s) => s.name), ['Tasks', 'Assignments']);
    assert.deepEqual(r.target.steps[0]!.keys!.map((k) => k.name), ['ProjectId', 'TaskId']);
    assert.equal(parsePdRequest('ProjectData/$metadata', '').target.kind, 'metadata');
    assert.equal(parsePdRequest('ProjectData/', '').target.kind, 'service');
    const value = parsePdRequest("ProjectData/Projects(guid'ce3d0d65-3904-e211-96cd-00155d157123')/ProjectName/$value", '').target;
    assert.ok(value.kind === 'resource' && value.value);
  });

  it('parses query options, skip tokens of several literals, and refuses unknown $ options', () => {
    const r = parsePdRequest('ProjectData/Tasks', "$select=TaskId,TaskName&$filter=TaskFinishDate%20lt%20datetime'2016-07-01T00:00:00'&$orderby=TaskFinishDate%20desc&$top=5&$inlinecount=allpages&$skiptoken=datetime'2016-06-30T00:00:00',guid'ce3d0d65-3904-e211-96cd-00155d157123',null");
    assert.deepEqual(r.options.select, ['TaskId', 'TaskName']);
    assert.equal(r.options.top, 5);
    assert.equal(r.options.inlineCount, true);
    assert.deepEqual(r.options.skipToken!.map((l) => l.type), ['datetime', 'guid', 'null']);
    assert.throws(() => parsePdRequest('ProjectData/Tasks', '$bogus=1'), (e: unknown) => e instanceof PdError && e.status === 400);
    assert.throws(() => parsePdRequest('ProjectData/Tasks', "$skiptoken=guid'x"), (e: unknown) => e instanceof PdError && e.status === 400);
    assert.throws(() => parsePdRequest('ProjectData/Tasks', '$top=-1'), (e: unknown) => e instanceof PdError && e.status === 400);
  });

  it('reads empty options as absent, empty parentheses as the set, encoded locale brackets, and names of any script', () => {
    const empty = parsePdRequest('ProjectData/Tasks', '$select=&$filter=&$orderby=&$top=&$skip=&$skiptoken=&$format=&$inlinecount=');
    assert.deepEqual([empty.options.select, empty.options.filter, empty.options.orderBy, empty.options.top, empty.options.skipToken, empty.options.format], [undefined, undefined, [], undefined, undefined, undefined]);
    const parens = parsePdRequest('ProjectData/Projects()/', '').target;
    assert.ok(parens.kind === 'resource' && parens.steps[0]!.keys === undefined);
    assert.equal(parsePdRequest('ProjectData/%5Ben-US%5D/Projects', '').locale, 'en-US');
    const names = parsePdRequest('ProjectData/Projects', '$select=ProjectName,%20Situa%C3%A7%C3%A3o&$orderby=Situa%C3%A7%C3%A3o%20desc').options;
    assert.deepEqual(names.select, ['ProjectName', 'Situação']);
    assert.deepEqual(names.orderBy, [{ path: ['Situação'], direction: 'desc' }]);
    for (const query of ['$select=a,,b', '$select=a%20b', '$orderby=a%20up', '$orderby=a%20asc%20desc']) {
      assert.throws(() => parsePdRequest('ProjectData/Tasks', query), (e: unknown) => e instanceof PdError && e.status === 400, query);
    }
  });

  it('accepts custom field names the feed can carry, refuses the others', () => {
    for (const name of ['Health_T', 'Situação', '_x', 'RBS_R2']) assert.equal(isCustomName(name), true, name);
    for (const name of ['Project Owner', 'Cost(USD)', '1st', 'a-b', 'ªx', '', 'x'.repeat(481)]) assert.equal(isCustomName(name), false, name);
  });

  it('writes errors in $format\'s format when it names one, else by Accept', () => {
    assert.equal(errorFormat(undefined, 'json'), 'light');
    assert.equal(errorFormat('application/json', 'application/json;odata=verbose'), 'verbose');
    assert.equal(errorFormat('application/json', 'csv'), 'light');
    assert.equal(errorFormat(undefined, undefined), 'atom');
  });

  it('chooses the format: $format first, then Accept by q, Atom by default, 415 for nothing usable', () => {
    assert.equal(negotiateFormat(undefined, undefined), 'atom');
    assert.equal(negotiateFormat('application/json;odata=verbose', undefined), 'verbose');
    assert.equal(negotiateFormat('application/json', undefined), 'light');
    assert.equal(negotiateFormat('application/json;odata=nometadata', undefined), 'light-nometadata');
    assert.equal(negotiateFormat('application/atom+xml;q=0.9, application/json;odata=verbose', undefined), 'verbose');
    assert.equal(negotiateFormat('application/json;q=0.1, application/atom+xml', undefined), 'atom');
    assert.equal(negotiateFormat('application/atom+xml', 'json'), 'light');
    assert.equal(negotiateFormat('application/json', 'atom'), 'atom');
    assert.throws(() => negotiateFormat('text/html', undefined), (e: unknown) => e instanceof PdError && e.status === 415);
  });
});
