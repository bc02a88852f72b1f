// `/_forms/default.aspx`: SharePoint's forms sign-in page, against a real spemu. A browser (or a
// script acting as one) reads the form, posts SharePoint's field names back, gets the FedAuth
// cookie and a redirect to ReturnUrl — only when ReturnUrl is of this origin — and a wrong
// password gets the form again with the error.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestServer } from '../helpers/server.ts';

const ALICE = 'alice@contoso.onmicrosoft.com';
const USER = 'ctl00$PlaceHolderMain$signInControl$UserName';
const PASSWORD = 'ctl00$PlaceHolderMain$signInControl$password';
const FAILED = 'The server could not sign you in. Make sure your user name and password are correct, and then try again.';

/** The form's action and inputs (name → value), read from the page as a script would. */
function readForm(html: string): { action: string; inputs: Map<string, string> } {
  const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const action = decode(/<form method="post" action="([^"]*)"/.exec(html)?.[1] ?? '');
  const inputs = new Map<string, string>();
  for (const m of html.matchAll(/<input\b([^>]*)>/g)) {
    const name = /\bname="([^"]*)"/.exec(m[1]!)?.[1];
    if (name) inputs.set(decode(name), decode(/\bvalue="([^"]*)"/.exec(m[1]!)?.[1] ?? ''));
  }
  return { action, inputs };
}

describe('forms sign-in page: /_forms/default.aspx', () => {
  const spemu = useTestServer({ anonymousUser: undefined });
  const url = (path: string) => `${spemu.server.url}${path}`;
  const post = (path: string, fields: Record<string, string>) => fetch(url(path), {
    method: 'POST', redirect: 'manual', body: new URLSearchParams(fields),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });

  it('GET shows the sign-in form with SharePoint\'s field names, posting back to the same URL; at the root and below a site, in any case', async () => {
    for (const path of ['/_forms/default.aspx?ReturnUrl=%2fsites%2fdev', '/sites/dev/_FORMS/Default.aspx']) {
      const res = await fetch(url(path));
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(res.headers.get('content-security-policy') ?? '', /form-action 'self'/);
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      const { action, inputs } = readForm(await res.text());
      assert.equal(action, path);
      assert.ok(inputs.has(USER) && inputs.has(PASSWORD), 'SharePoint\'s sign-in control fields');
      assert.ok(inputs.has('__VIEWSTATE') && inputs.has('__EVENTVALIDATION'), 'the postback fields scripts read');
    }
  });

  it('a right password: 302 to ReturnUrl with the FedAuth cookie, which /_api accepts', async () => {
    const res = await post(`/_forms/default.aspx?ReturnUrl=${encodeURIComponent('/sites/dev/_api/web?$select=Title')}`, { [USER]: ALICE, [PASSWORD]: 'alice-demo-pass' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/sites/dev/_api/web?$select=Title');
    const cookie = res.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^FedAuth=[^;]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax/);
    const web = await fetch(url(res.headers.get('location')!), { headers: { Cookie: cookie.split(';')[0]!, Accept: 'application/json;odata=nometadata' } });
    assert.equal(web.status, 200);
    assert.equal(typeof ((await web.json()) as { Title: string }).Title, 'string');
    const me = await fetch(url('/sites/dev/_api/web/currentuser?$select=UserPrincipalName'), { headers: { Cookie: cookie.split(';')[0]!, Accept: 'application/json;odata=nometadata' } });
    assert.equal(((await me.json()) as { UserPrincipalName: string }).UserPrincipalName, ALICE);
  });

  it('ReturnUrl is honoured only on this origin: an absolute URL of it becomes its path; another host, or //host, goes to the site instead', async () => {
    const good = await post(`/sites/dev/_forms/default.aspx?ReturnUrl=${encodeURIComponent(`${spemu.server.url}/sites/dev/Shared%20Documents/`)}`, { [USER]: ALICE, [PASSWORD]: 'alice-demo-pass' });
    assert.equal(good.headers.get('location'), '/sites/dev/Shared%20Documents/');
    for (const evil of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', `${spemu.server.url.replace('127.0.0.1', 'localhost')}/x`]) {
      const atSite = await post(`/sites/dev/_forms/default.aspx?ReturnUrl=${encodeURIComponent(evil)}`, { [USER]: ALICE, [PASSWORD]: 'alice-demo-pass' });
      assert.equal(atSite.status, 302, evil);
      assert.equal(atSite.headers.get('location'), '/sites/dev', evil);
      const atRoot = await post(`/_forms/default.aspx?ReturnUrl=${encodeURIComponent(evil)}`, { [USER]: ALICE, [PASSWORD]: 'alice-demo-pass' });
      assert.equal(atRoot.headers.get('location'), '/', evil);
    }
  });

  it('a wrong password or an unknown user: the form again, with SharePoint\'s message, the user name kept (escaped), no cookie', async () => {
    for (const [user, password] of [[ALICE, 'wrong'], ['nobody@contoso.onmicrosoft.com', 'alice-demo-pass'], ['"><script>x</script>', 'x'], [ALICE, '']]) {
      const res = await post('/_forms/default.aspx?ReturnUrl=%2fsites%2fdev', { [USER]: user!, [PASSWORD]: password! });
      assert.equal(res.status, 200, user);
      assert.equal(res.headers.get('set-cookie'), null);
      const html = await res.text();
      assert.ok(html.includes(FAILED), user);
      assert.ok(!html.includes('<script>'), 'nothing posted is echoed unescaped');
      const { action, inputs } = readForm(html);
      assert.equal(inputs.get(USER), user);
      assert.equal(action, '/_forms/default.aspx?ReturnUrl=%2fsites%2fdev', 'still posts back with the ReturnUrl');
    }
  });

  it('as a script signs in: GET the page, post every field back (hidden ones too), follow the redirect with the cookie', async () => {
    const start = '/sites/dev/_forms/default.aspx?ReturnUrl=%2fsites%2fdev%2f_api%2fweb%2flists%3f%24select%3dTitle';
    const { action, inputs } = readForm(await (await fetch(url(start))).text());
    const fields = Object.fromEntries(inputs);
    fields[USER] = ALICE;
    fields[PASSWORD] = 'alice-demo-pass';
    const res = await post(action, fields);
    assert.equal(res.status, 302);
    const lists = await fetch(url(res.headers.get('location')!), { headers: { Cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, Accept: 'application/json;odata=nometadata' } });
    assert.equal(lists.status, 200);
    assert.ok(((await lists.json()) as { value: Array<{ Title: string }> }).value.some((l) => l.Title === 'Documents'));
  });
});
