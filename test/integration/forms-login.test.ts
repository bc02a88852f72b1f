// `_vti_bin/authentication.asmx`: SharePoint's SOAP forms login, as node-sp-auth's FBA
// resolver sends it, against a real spemu. The cookie it sets must work on `/_api`.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestServer } from '../helpers/server.ts';

const ALICE = 'alice@contoso.onmicrosoft.com';

/** The envelope node-sp-auth posts (CRLFs and all), with XML-escaped credentials. */
const loginEnvelope = (username: string, password: string) => {
  const esc = (s: string) => s.replace(/[<&>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return '<?xml version="1.0" encoding="utf-8"?>\r\n<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    + 'xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">\r\n  <soap:Body>\r\n'
    + `    <Login xmlns="http://schemas.microsoft.com/sharepoint/soap/">\r\n      <username>${esc(username)}</username>\r\n`
    + `      <password>${esc(password)}</password>\r\n    </Login>\r\n  </soap:Body>\r\n</soap:Envelope>`;
};

describe('forms login: _vti_bin/authentication.asmx', () => {
  const spemu = useTestServer({ anonymousUser: undefined });
  const post = (path: string, body: string) => fetch(`${spemu.server.url}${path}`, {
    method: 'POST', body, headers: { 'Content-Type': 'text/xml; charset="utf-8"', SOAPAction: 'http://schemas.microsoft.com/sharepoint/soap/Login' },
  });

  it('a right password answers LoginResult NoError and a FedAuth cookie that /_api accepts', async () => {
    const res = await post('/sites/dev/_vti_bin/Authentication.asmx', loginEnvelope(ALICE, 'alice-demo-pass'));
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/xml/);
    const xml = await res.text();
    assert.match(xml, /<LoginResult><CookieName>FedAuth<\/CookieName><ErrorCode>NoError<\/ErrorCode><TimeoutSeconds>\d+<\/TimeoutSeconds><\/LoginResult>/);
    const cookie = res.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^FedAuth=[^;]+; Path=\/; Max-Age=\d+; HttpOnly/);
    const web = await fetch(`${spemu.server.url}/sites/dev/_api/web?$select=Title`, {
      headers: { Cookie: cookie.split(';')[0]!, Accept: 'application/json;odata=nometadata' },
    });
    assert.equal(web.status, 200);
    assert.equal(((await web.json()) as { Title: string }).Title.length > 0, true);
  });

  it('a wrong password and an unknown user both answer PasswordNotMatch, with no cookie', async () => {
    for (const [user, password] of [[ALICE, 'wrong'], ['nobody@contoso.onmicrosoft.com', 'alice-demo-pass'], [ALICE, '']]) {
      const res = await post('/_vti_bin/authentication.asmx', loginEnvelope(user!, password!));
      assert.equal(res.status, 200);
      assert.match(await res.text(), /<ErrorCode>PasswordNotMatch<\/ErrorCode>/);
      assert.equal(res.headers.get('set-cookie'), null);
    }
  });

  it('credentials with XML entities are decoded before they are checked', async () => {
    const res = await post('/_vti_bin/authentication.asmx', loginEnvelope(ALICE, 'alice-demo-pass').replace('alice-demo-pass', 'alice&#45;demo&#x2d;pass'));
    assert.match(await res.text(), /<ErrorCode>NoError<\/ErrorCode>/);
  });

  it('a body that is not a Login request is a SOAP fault (500), never a session', async () => {
    for (const body of ['', 'not xml', '<soap:Envelope><soap:Body><Logout/></soap:Body></soap:Envelope>']) {
      const res = await post('/_vti_bin/authentication.asmx', body);
      assert.equal(res.status, 500);
      assert.match(await res.text(), /<soap:Fault><faultcode>soap:Client<\/faultcode>/);
      assert.equal(res.headers.get('set-cookie'), null);
    }
  });

  it('other _vti_bin paths stay with SharePoint REST: client.svc answers the Bearer realm challenge', async () => {
    const res = await fetch(`${spemu.server.url}/_vti_bin/client.svc`, { headers: { Authorization: 'Bearer ' } });
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /Bearer realm="[0-9a-f-]{36}"/);
  });
});

describe('forms login: reading the envelope', () => {
  it('an empty <password/> is a wrong password, not a malformed request', async () => {
    const { elementText } = await import('../../src/fronts/vti-bin/authentication.ts');
    assert.equal(elementText('<Login><username>a</username><password/></Login>', 'password'), '');
    assert.equal(elementText('<Login><username>a</username></Login>', 'password'), undefined);
    assert.equal(elementText('<x:Login><x:username><![CDATA[a<b]]></x:username></x:Login>', 'username'), 'a<b');
  });
});
