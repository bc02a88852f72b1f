// `POST {site}/_vti_bin/authentication.asmx`, SOAP `Login`: SharePoint's forms-based sign-in
// as node-sp-auth's FBA resolver (and so sp-request, spsave, sppull) and other on-premises
// clients send it. A right password answers `LoginResult` with `ErrorCode` NoError and sets
// the `FedAuth` session cookie (the one `/_spemu/login` sets); a wrong one, or an unknown
// user, answers `PasswordNotMatch` with no cookie. Both are HTTP 200, as the SOAP service answers.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { RequestBody } from '../../pipeline/body.ts';
import { SESSION_COOKIE, SESSION_SECONDS } from '../../identity/sessions.ts';
import { signIn } from '../../pipeline/sign-in-page.ts';
import { newRequestId, SHAREPOINT_BUILD } from '../../wire/headers.ts';

export const AUTHENTICATION_PATH = /\/_vti_bin\/authentication\.asmx$/i;

const SOAP_NS = 'http://schemas.microsoft.com/sharepoint/soap/';
const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text of the first `<name>` element (any prefix), XML entities and CDATA decoded; undefined when absent. */
export function elementText(xml: string, name: string): string | undefined {
  const m = new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}\\s*>`, 'i').exec(xml);
  if (!m) return new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?/>`, 'i').test(xml) ? '' : undefined;
  return m[1]!.replace(/<!\[CDATA\[([\s\S]*?)\]\]>|&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, cdata: string | undefined, entity: string | undefined) => {
    if (cdata !== undefined) return cdata;
    const e = entity!.toLowerCase();
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return XML_ENTITIES[e] ?? whole;
  });
}

function envelope(body: string): string {
  return '<?xml version="1.0" encoding="utf-8"?>'
    + '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">'
    + `<soap:Body>${body}</soap:Body></soap:Envelope>`;
}

const loginResult = (errorCode: 'NoError' | 'PasswordNotMatch') => envelope(
  `<LoginResponse xmlns="${SOAP_NS}"><LoginResult><CookieName>${SESSION_COOKIE}</CookieName>`
  + `<ErrorCode>${errorCode}</ErrorCode><TimeoutSeconds>${SESSION_SECONDS}</TimeoutSeconds></LoginResult></LoginResponse>`);

/** A SOAP 1.1 fault, as ASP.NET's web services answer a request they cannot read (HTTP 500). */
const fault = (message: string) => envelope(
  `<soap:Fault><faultcode>soap:Client</faultcode><faultstring>${message.replace(/[<&>]/g, (c) => ({ '<': '&lt;', '&': '&amp;', '>': '&gt;' })[c]!)}</faultstring><detail /></soap:Fault>`);

export async function serveLogin(req: FastifyRequest, reply: FastifyReply, deps: FrontDeps): Promise<void> {
  const requestId = newRequestId();
  reply.headers({
    SPRequestGuid: requestId, 'request-id': requestId, 'X-Content-Type-Options': 'nosniff',
    MicrosoftSharePointTeamServices: `16.0.0.${SHAREPOINT_BUILD}`, 'Cache-Control': 'private, max-age=0',
    'Content-Type': 'text/xml; charset=utf-8',
  });
  const xml = (await RequestBody.fromRequest(req.body, req.headers['content-length'], deps.bodyLimit)?.bytes())?.toString('utf8') ?? '';
  const login = /<(?:[\w.-]+:)?Login[\s>]/.test(xml) ? { username: elementText(xml, 'username'), password: elementText(xml, 'password') } : undefined;
  if (!login || login.username === undefined || login.password === undefined) {
    reply.code(500).send(fault('Server did not recognize the value of HTTP Header SOAPAction, or the request has no Login element with username and password.'));
    return;
  }
  const session = await signIn(deps, req, login.username.trim(), login.password);
  req.log.info({ requestId, method: 'POST', url: req.url.split('?')[0], status: 200, login: session ? 'accepted' : 'refused' }, 'request');
  if (!session) {
    reply.code(200).send(loginResult('PasswordNotMatch'));
    return;
  }
  reply.code(200).header('Set-Cookie', session.cookie).send(loginResult('NoError'));
}
