// Site columns and calculated fields declared in a tenant file (issue #14): loaded by a real
// server on the leg's database — a root web's and a subweb's columns listed by web/fields,
// lists using them by name (under the column's id), items giving their values, calculated
// fields (a list's and a site column) computed at load — and the file's mistakes about them
// reported by JSON pointer before anything is loaded.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { TenantFileError, validateTenant } from '../../src/tenant/validate.ts';

const OLIVIA = 'olivia@fabrikam.onmicrosoft.com';
const NOMETA = 'application/json;odata=nometadata';

function tenantWith(site: Record<string, unknown>) {
  return {
    tenant: { name: 'fabrikam' },
    users: [{ upn: OLIVIA, displayName: 'Olivia Owner' }],
    sites: [{ url: '/sites/test', title: 'Test', owners: [OLIVIA], ...site }],
  };
}

const TENANT = tenantWith({
  siteColumns: [
    { name: 'ProjectCode', title: 'Project Code', type: 'Text', group: 'Projects', required: true, maxLength: 12 },
    { name: 'Budget', type: 'Currency', group: 'Projects', min: 0 },
    { name: 'Phase', type: 'Choice', choices: ['Plan', 'Build', 'Run'] },
    { name: 'CodeLabel', title: 'Code Label', type: 'Calculated', formula: '=UPPER([Project Code])&"/"&Phase', group: 'Projects' },
  ],
  lists: [{
    title: 'Projects',
    siteColumns: ['ProjectCode', 'budget', 'Phase', 'CodeLabel'],
    fields: [
      { name: 'Months', type: 'Number' },
      { name: 'Monthly', type: 'Calculated', formula: '=IF(Months>0,ROUND(Budget/Months,2),0)', outputType: 'Currency' },
    ],
    items: [
      { Title: 'Alpha', ProjectCode: 'alp-1', Budget: 1200, Phase: 'Build', Months: 12 },
      { Title: 'Beta', ProjectCode: 'bet-2', Budget: 1000, Phase: 'Plan', Months: 3 },
    ],
  }],
  webs: [{
    url: 'ops', title: 'Operations',
    siteColumns: [{ name: 'Shift', type: 'Choice', choices: ['Day', 'Night'] }],
    lists: [{ title: 'Runs', siteColumns: ['Shift', 'ProjectCode'], items: [{ Title: 'r1', Shift: 'Night', ProjectCode: 'alp-1' }] }],
  }],
});

describe(`site columns in a tenant file (${testBackend()})`, () => {
  const spemu = useTestServer({ seed: TENANT });
  let site: string;
  before(() => { site = spemu.server.site('/sites/test'); });

  const json = async (url: string) => {
    const r = await fetch(url, { headers: { Accept: NOMETA } });
    assert.equal(r.status, 200, `${url}: ${r.status}`);
    return r.json() as Promise<any>;
  };

  it('web/fields lists each web\'s own columns with their group, type and options; a subweb can use its parent\'s', async () => {
    const root = (await json(`${site}/_api/web/fields?$filter=Group eq 'Projects'&$select=InternalName,Title,TypeAsString,Required`)).value;
    assert.deepEqual(root.map((f: any) => [f.InternalName, f.Title, f.TypeAsString, f.Required]).sort(), [
      ['Budget', 'Budget', 'Currency', false], ['CodeLabel', 'Code Label', 'Calculated', false], ['ProjectCode', 'Project Code', 'Text', true]]);
    const label = await json(`${site}/_api/web/fields/getbyinternalnameortitle('CodeLabel')?$select=Formula,OutputType`);
    assert.deepEqual([label.Formula, label.OutputType], ['=UPPER([Project Code])&"/"&Phase', 2]);
    const ops = (await json(`${site}/ops/_api/web/fields?$select=InternalName`)).value.map((f: any) => f.InternalName);
    assert.deepEqual(ops, ['Shift']);
    const available = (await json(`${site}/ops/_api/web/availablefields?$select=InternalName`)).value.map((f: any) => f.InternalName);
    assert.ok(available.includes('Shift') && available.includes('ProjectCode'));
  });

  it('a list uses site columns under their ids; items carry their values, calculated ones computed at load', async () => {
    const column = await json(`${site}/_api/web/fields/getbyinternalnameortitle('ProjectCode')?$select=Id`);
    const inList = await json(`${site}/_api/web/lists/getbytitle('Projects')/fields/getbyinternalnameortitle('ProjectCode')?$select=Id,Required,MaxLength`);
    assert.deepEqual([inList.Id, inList.Required, inList.MaxLength], [column.Id, true, 12]);
    const items = (await json(`${site}/_api/web/lists/getbytitle('Projects')/items?$select=Title,ProjectCode,Budget,CodeLabel,Monthly&$orderby=Monthly desc`)).value;
    assert.deepEqual(items.map((i: any) => [i.Title, i.ProjectCode, i.Budget, i.CodeLabel, i.Monthly]), [
      ['Beta', 'bet-2', 1000, 'BET-2/Plan', 333.33], ['Alpha', 'alp-1', 1200, 'ALP-1/Build', 100]]);
    const runs = (await json(`${site}/ops/_api/web/lists/getbytitle('Runs')/items?$select=Title,Shift,ProjectCode`)).value;
    assert.deepEqual(runs.map((i: any) => [i.Title, i.Shift, i.ProjectCode]), [['r1', 'Night', 'alp-1']]);
  });
});

describe('a tenant file\'s mistakes about site columns and calculated fields', () => {
  const problems = (site: Record<string, unknown>) => {
    try {
      validateTenant(tenantWith(site));
    } catch (e) {
      assert.ok(e instanceof TenantFileError, String(e));
      return e.problems.map((p) => `${p.path}: ${p.message}`).sort();
    }
    return [];
  };

  it('an unknown or duplicate site column, a list field clashing with one, a group on a list field, a value for a calculated field', () => {
    assert.deepEqual(problems({
      siteColumns: [{ name: 'Code', type: 'Text' }, { name: 'code', type: 'Note' }, { name: 'Title', type: 'Text' }],
      lists: [{
        title: 'L', siteColumns: ['Code', 'Nope'],
        fields: [{ name: 'Code', type: 'Text' }, { name: 'G', type: 'Text', group: 'x' }, { name: 'C', type: 'Calculated', formula: '=1' }],
        items: [{ C: 5 }],
      }],
      webs: [{ url: 'w', title: 'W', siteColumns: [{ name: 'CODE', type: 'Text' }] }],
    }), [
      '/sites/0/lists/0/fields/0/name: "Code" is the name of a site column the list uses',
      '/sites/0/lists/0/fields/1/group: applies only to site columns',
      '/sites/0/lists/0/items/0/C: is computed from the field\'s formula: leave it out',
      '/sites/0/lists/0/siteColumns/1: no site column named "Nope" in this web or a parent web',
      '/sites/0/siteColumns/1/name: duplicate site column name "code" (this web or a parent web has one)',
      '/sites/0/siteColumns/2/name: "Title" is a built-in field name',
      '/sites/0/webs/0/siteColumns/0/name: duplicate site column name "CODE" (this web or a parent web has one)',
    ]);
  });

  it('formulas SharePoint refuses, with its messages, and a Calculated field without one', () => {
    assert.deepEqual(problems({
      siteColumns: [{ name: 'Soon', type: 'Calculated', formula: '=TODAY()+7' }],
      lists: [{
        title: 'L',
        fields: [
          { name: 'N', type: 'Note' },
          { name: 'A', type: 'Calculated', formula: '=[N]&"x"' },
          { name: 'B', type: 'Calculated', formula: '=[Missing]+1' },
          { name: 'C', type: 'Calculated', formula: '=(1+' },
          { name: 'D', type: 'Calculated' },
          { name: 'E', type: 'Text', formula: '=1' },
        ],
      }],
    }), [
      '/sites/0/lists/0/fields/1/formula: One or more column references are not allowed, because the columns are defined as a data type that is not supported in formulas.',
      '/sites/0/lists/0/fields/2/formula: The formula refers to a column that does not exist.  Check the formula for spelling mistakes or change the non-existing column to an existing column.',
      '/sites/0/lists/0/fields/3/formula: The formula contains a syntax error or is not supported.',
      '/sites/0/lists/0/fields/4/formula: is required',
      '/sites/0/lists/0/fields/5/formula: applies only to Calculated fields',
      '/sites/0/siteColumns/0/formula: Calculated columns cannot contain volatile functions like Today and Me.',
    ]);
  });
});
