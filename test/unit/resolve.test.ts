// The REST resolver (fronts/rest/api/resolve.ts) over a real store: how a path is walked
// (navigation, keys, functions, actions), which names it knows in any case, what it refuses
// and with which SharePoint error, and the plan it hands the pipeline (the body kind, the run).

import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Outcome } from '../../src/fronts/rest/api/outcome.ts';
import type { Entity, Payload } from '../../src/wire/values.ts';
import { isReportable, SpError, toSpError } from '../../src/wire/errors.ts';
import { useApiFixture, type ApiFixture } from '../helpers/api-context.ts';
import { minimalTenant } from '../helpers/server.ts';

const OLIVIA = 'olivia@fabrikam.onmicrosoft.com';

const use = useApiFixture(minimalTenant({
  lists: [
    { title: 'Tasks', url: 'Lists/Tasks', items: [{ Title: 'First' }, { Title: 'Second' }] },
    { title: 'Scratch', url: 'Lists/Scratch' },
  ],
}));

async function payloadOf(outcome: Outcome): Promise<Payload> {
  assert.equal(outcome.status, 200);
  assert.ok(outcome.payload, 'a payload');
  return outcome.payload;
}

/** The single entity a GET of `path` answers. */
async function entityAt(path: string): Promise<Entity> {
  const { plan, ctx } = await use.api.plan(path);
  const payload = await payloadOf(await plan.run(ctx));
  assert.equal(payload.kind, 'entity');
  return payload.entity;
}

const prop = (entity: Entity, name: string) => entity.props.find(([k]) => k === name)?.[1];

/** Resolving `path` fails with this SharePoint status, code and (when given) text. */
async function refused(path: string, verb: Parameters<ApiFixture['plan']>[1], status: number, code: string, message?: string): Promise<void> {
  await assert.rejects(use.api.plan(path, verb), (e: unknown) => {
    assert.ok(e instanceof SpError, String(e));
    assert.equal(e.status, status, `${path}: ${e.message}`);
    assert.equal(e.code, code);
    if (message !== undefined) assert.equal(e.message, message);
    return true;
  });
}
const NOT_FOUND = '-1, Microsoft.SharePoint.Client.ResourceNotFoundException';
const NOT_IMPLEMENTED = '-1, System.NotImplementedException';
const NOT_ALLOWED = '-1, Microsoft.SharePoint.Client.ClientServiceException';

it('navigation, a function and a key lead to the item they name', async () => {
  const item = await entityAt("web/lists/getbytitle('Tasks')/items(2)");
  assert.equal(prop(item, 'Title'), 'Second');
  assert.equal(prop(item, 'Id'), 2);
  assert.match(item.editLink ?? '', /^Web\/Lists\(guid'[0-9a-f-]{36}'\)\/Items\(2\)$/);
});

it('a key addresses an element: web/lists(guid) and items(n) find the same item as getbytitle and getbyid', async () => {
  const list = await use.api.store.lists.byTitle(use.api.web.id, 'Tasks');
  const byKey = await entityAt(`web/lists(guid'${list!.id.toUpperCase()}')/items(1)`);
  const byFunction = await entityAt("lists/GetByTitle('Tasks')/items/getbyid(1)");
  assert.equal(prop(byKey, 'Title'), 'First');
  assert.deepEqual(byKey.props, byFunction.props);
});

it('segment and method names match in any case', async () => {
  const lower = await entityAt("web/lists/getbytitle('Tasks')/items(1)");
  const upper = await entityAt("WEB/LISTS/GETBYTITLE('Tasks')/ITEMS(1)");
  assert.equal(prop(upper, 'Title'), 'First');
  assert.deepEqual(upper.props.map(([k]) => k), lower.props.map(([k]) => k));
});

it('parameter aliases stand for their value in keys and function arguments', async () => {
  const item = await entityAt("lists/getbytitle(@t)/items(@id)?@t='Tasks'&@id=2");
  assert.equal(prop(item, 'Title'), 'Second');
});

it('functions run while the path is resolved: a missing list fails before any body is read', async () => {
  await refused("web/lists/getbytitle('Nope')/items", 'POST', 404, '-1, System.ArgumentException',
    "List 'Nope' does not exist at site with URL 'http://spemu.test/sites/test'.");
});

it('an unknown name is SharePoint\'s 404 ResourceNotFoundException, wherever it stands', async () => {
  const text = "Exception of type 'Microsoft.SharePoint.Client.ResourceNotFoundException' was thrown.";
  await refused('nonsense', 'GET', 404, NOT_FOUND, text);
  await refused('web/nonsense', 'GET', 404, NOT_FOUND, text);
  await refused("web/lists/getbytitle('Tasks')/nonsense", 'GET', 404, NOT_FOUND, text);
  // A root with parentheses, a key on what has none, a key with nothing in it.
  await refused('web()', 'GET', 404, NOT_FOUND);
  await refused('web/lists/getbytitle(\'Tasks\')/rootfolder(1)', 'GET', 404, NOT_FOUND);
  await refused("web/lists/getbytitle('Tasks')/items()", 'GET', 404, NOT_FOUND);
  await refused('', 'GET', 404, NOT_FOUND);
});

it('a name SharePoint has and spemu does not serve yet is a 501 naming it as written', async () => {
  await refused('$metadata', 'GET', 501, NOT_IMPLEMENTED, "The operation '$metadata' is not implemented by spemu.");
  await refused('web/Alerts', 'GET', 501, NOT_IMPLEMENTED, "The operation 'Alerts' is not implemented by spemu.");
  await refused('web/Properties', 'GET', 501, NOT_IMPLEMENTED, "The operation 'Properties' is not implemented by spemu.");
  // At the root, `search` is known-but-missing; in any case.
  await refused('Search', 'GET', 501, NOT_IMPLEMENTED);
});

it('an action needs POST and must end the path: 405 otherwise', async () => {
  const method = (m: string) => `The HTTP method '${m}' cannot be used on this resource.`;
  await refused("web/lists/getbytitle('Tasks')/recycle", 'GET', 405, NOT_ALLOWED, method('GET'));
  await refused("web/lists/getbytitle('Tasks')/recycle", 'MERGE', 405, NOT_ALLOWED, method('MERGE'));
  await refused("web/lists/getbytitle('Tasks')/recycle()/items", 'POST', 405, NOT_ALLOWED, method('POST'));
});

it('an action is planned, not run: it runs with the body once the pipeline calls it', async () => {
  const { plan, ctx } = await use.api.plan("web/lists/getbytitle('Scratch')/Recycle()", 'POST');
  assert.equal(plan.body, 'json');
  // Planning left the list alone.
  const list = await use.api.store.lists.byTitle(use.api.web.id, 'Scratch');
  assert.ok(list);
  const payload = await payloadOf(await plan.run(ctx));
  assert.equal(payload.kind, 'primitive');
  // The list's recycle bin entry (its own id), holding the list.
  const binId = String((payload as { value: unknown }).value);
  assert.equal((await use.api.store.recycleBin.get(use.api.web.siteId, binId))?.title, 'Scratch');
  assert.equal(await use.api.store.lists.byTitle(use.api.web.id, 'Scratch'), undefined);
});

it('a function whose answer is a result (not a resource) must end the path', async () => {
  const { plan, ctx } = await use.api.plan('SP.UserProfiles.PeopleManager/GetMyProperties');
  assert.equal(plan.body, 'none');
  const payload = await payloadOf(await plan.run(ctx));
  assert.equal(payload.kind, 'entity');
  assert.equal(prop(payload.entity, 'AccountName'), `i:0#.f|membership|${OLIVIA}`);
  await refused('SP.UserProfiles.PeopleManager/GetMyProperties/Email', 'GET', 404, NOT_FOUND);
});

it('a verb the resource has no handler for is 405', async () => {
  await refused('web/lists', 'DELETE', 405, NOT_ALLOWED, "The HTTP method 'DELETE' cannot be used on this resource.");
  await refused("web/lists/getbytitle('Tasks')/items(1)/FieldValuesAsText", 'PATCH', 405, NOT_ALLOWED);
});

it('the plan carries the body kind the final handler declares', async () => {
  const kinds: Array<[string, Parameters<ApiFixture['plan']>[1], string]> = [
    ['web', 'GET', 'none'],
    ['web/lists', 'POST', 'json'],
    ["web/lists/getbytitle('Tasks')/items(1)", 'MERGE', 'json'],
    ["web/lists/getbytitle('Tasks')/items(1)", 'PUT', 'json'],
    ["web/lists/getbytitle('Tasks')/items(1)", 'DELETE', 'none'],
    ["web/lists/getbytitle('Tasks')/ReserveListItemId", 'POST', 'json'],
    ['SP.UserProfiles.PeopleManager/SetMyProfilePicture', 'POST', 'raw'],
    // A function POSTed (gosip does) is run while resolving: the body is never read.
    ['SP.UserProfiles.PeopleManager/GetMyProperties', 'POST', 'none'],
  ];
  for (const [path, verb, body] of kinds) assert.equal((await use.api.plan(path, verb)).plan.body, body, `${verb} ${path}`);
});

it('the verb handler runs with the If-Match the request carried', async () => {
  const path = "web/lists/getbytitle('Tasks')/items(1)";
  const { plan, ctx } = await use.api.plan(path, 'MERGE', { ifMatch: '"99"' });
  // The service refuses it in no protocol's terms; the front's catalogue makes it SharePoint's 412.
  await assert.rejects(plan.run({ ...ctx, body: { Title: 'Changed' } }), (e: unknown) => isReportable(e) && toSpError(e).status === 412
    && toSpError(e).message === "The request ETag value '\"99\"' does not match the object's ETag value '\"1\"'.");
  assert.equal(prop(await entityAt(path), 'Title'), 'First');
});
