// The REST pipeline reads a request body as the handler that ends the path declares it
// (resource.ts BodyKind), after the path is resolved: JSON methods keep SharePoint's exact
// errors for a body that is not JSON; SetMyProfilePicture takes the bytes as sent, whatever
// their label; the body of a path that resolves to nothing is never read.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';
import { call, DEMO, picture } from '../helpers/profiles.ts';
import { ACCEPT } from '../helpers/wire.ts';

const CLIENT_QUERY = 'Microsoft.SharePoint.Client.InvalidClientQueryException';
const CLIENT_SERVICE = 'Microsoft.SharePoint.Client.ClientServiceException';

/** JSON.parse's own message for `text`, as "Invalid JSON." quotes it. */
function parseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('valid JSON');
}

function assertError(r: { status: number; json: any; text: string }, status: number, code: string, message: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.json['odata.error'].code, `-1, ${code}`);
  assert.equal(r.json['odata.error'].message.value, message);
}

describe('request bodies read as the resolved handler declares them', () => {
  const spemu = useTestServer();
  let site: string;
  before(() => {
    site = spemu.server.site('/sites/dev');
  });

  it('a JSON create (POST to lists) with a body that is not JSON: 400 Invalid JSON, as before', async () => {
    const r = await call(`${site}/_api/web/lists`, { method: 'POST', accept: ACCEPT.nometadata, body: 'not json' });
    assertError(r, 400, CLIENT_QUERY, `Invalid JSON. ${parseMessage('not json')}`);
  });

  it('a JSON action (EnsureUser) with truncated JSON: 400 Invalid JSON', async () => {
    const r = await call(`${site}/_api/web/ensureuser`, { method: 'POST', accept: ACCEPT.nometadata, body: '{"logonName":' });
    assertError(r, 400, CLIENT_QUERY, `Invalid JSON. ${parseMessage('{"logonName":')}`);
  });

  it('a JSON update (MERGE on a list) with a body labelled text/html: 415', async () => {
    const r = await call(`${site}/_api/web/lists/getbytitle('Tasks')`, {
      method: 'POST', accept: ACCEPT.nometadata, body: '<p>hi</p>', contentType: 'text/html', headers: { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' },
    });
    assertError(r, 415, CLIENT_SERVICE, "The content type 'text/html' is not supported. Send JSON (application/json).");
  });

  it('a JSON body with a UTF-8 byte order mark is read (the mark is not part of the JSON)', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ Title: 'BOM list', BaseTemplate: 100 }))]);
    const r = await call(`${site}/_api/web/lists`, { method: 'POST', accept: ACCEPT.nometadata, body, contentType: 'application/json' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.Title, 'BOM list');
  });

  it('SetMyProfilePicture takes PNG and JPEG bytes labelled application/json, and bytes under any other label', async () => {
    for (const [format, contentType] of [['png', 'application/json'], ['jpeg', 'application/json;odata=verbose'], ['png', 'text/html']] as const) {
      const bytes = await picture(format, 40, 30, { r: 200, g: 10, b: 10 });
      const r = await call(`${site}/_api/SP.UserProfiles.PeopleManager/SetMyProfilePicture`, { method: 'POST', accept: ACCEPT.nometadata, body: bytes, contentType, as: DEMO.alice });
      assert.equal(r.status, 200, `${format} as ${contentType}: ${r.text}`);
    }
  });

  it('SetMyProfilePicture with bytes that are not an image is refused as a picture, not as JSON', async () => {
    const r = await call(`${site}/_api/SP.UserProfiles.PeopleManager/SetMyProfilePicture`, {
      method: 'POST', accept: ACCEPT.nometadata, body: Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0xc0]), contentType: 'application/json',
    });
    assert.equal(r.status, 400, r.text);
    assert.doesNotMatch(r.json['odata.error'].message.value, /Invalid JSON/);
  });

  it('the path is resolved before the body is read: a body to a path that does not exist answers 404, not 400', async () => {
    const r = await call(`${site}/_api/web/nosuchthing`, { method: 'POST', accept: ACCEPT.nometadata, body: 'not json' });
    assert.equal(r.status, 404, r.text);
  });
});
