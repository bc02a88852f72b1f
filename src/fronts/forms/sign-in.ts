// `{site}/_forms/default.aspx`: SharePoint's forms-based sign-in page, for browsers and scripts
// that sign in as they would to an on-premises farm with forms authentication. GET shows the
// form with SharePoint's field names (`ctl00$PlaceHolderMain$signInControl$UserName`,
// `…$password`); POST checks them through the shared sign-in, sets the FedAuth session cookie
// and redirects (302) to `ReturnUrl` when it is of this origin, else to the site; a wrong
// password shows the form again with SharePoint's message (200, as an ASP.NET postback answers).

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { PAGE_HEADERS, readBodyText, safeReturnUrl, signIn, signInDocument, signInForm } from '../../pipeline/sign-in-page.ts';

export const FORMS_PAGE = /(?:^|\/)_forms\/default\.aspx$/i;

const CONTROL = 'ctl00$PlaceHolderMain$signInControl$';
export const USER_FIELD = `${CONTROL}UserName`;
export const PASSWORD_FIELD = `${CONTROL}password`;
/** SharePoint's text when the sign-in control refuses the credentials (INFERRED, docs/compatibility.md). */
export const SIGN_IN_FAILED = 'The server could not sign you in. Make sure your user name and password are correct, and then try again.';

/**
 * ASP.NET's postback fields, present so that scripts which read them from the page and post
 * them back (as they must for SharePoint) find them; spemu ignores what comes back in them.
 */
const POSTBACK_FIELDS = { __EVENTTARGET: '', __EVENTARGUMENT: '', __VIEWSTATE: 'spemu', __VIEWSTATEGENERATOR: 'spemu', __EVENTVALIDATION: 'spemu' };

/** The site the page was asked for below (`/sites/dev`), or `/`: where to go when no ReturnUrl is given. */
const sitePathOf = (pathname: string) => pathname.replace(FORMS_PAGE, '') || '/';

function page(req: FastifyRequest, state: { error?: string; upn?: string }): string {
  // The form posts back to the same URL, query and all, as SharePoint's page does.
  return signInDocument('Sign In', signInForm({
    action: req.url, userField: USER_FIELD, passwordField: PASSWORD_FIELD, submitField: `${CONTROL}login`,
    hidden: POSTBACK_FIELDS, error: state.error, upn: state.upn,
  }));
}

/** `ReturnUrl` (or `Source`) from the query, when it is of this origin. */
function returnUrlOf(req: FastifyRequest): string | undefined {
  const query = req.query as Record<string, unknown>;
  return safeReturnUrl(query.ReturnUrl ?? query.returnUrl ?? query.Source ?? query.source, req.publicOrigin);
}

export async function serveFormsPage(req: FastifyRequest, reply: FastifyReply, deps: FrontDeps): Promise<void> {
  if (req.method !== 'POST') {
    reply.code(200).headers(PAGE_HEADERS).send(page(req, {}));
    return;
  }
  const fields = new URLSearchParams(await readBodyText(req, deps.bodyLimit));
  const upn = (fields.get(USER_FIELD) ?? '').trim();
  const session = await signIn(deps, req, upn, fields.get(PASSWORD_FIELD) ?? '');
  req.log.info({ method: 'POST', url: req.url.split('?')[0], status: session ? 302 : 200, login: session ? 'accepted' : 'refused' }, 'request');
  if (!session) {
    reply.code(200).headers(PAGE_HEADERS).send(page(req, { error: SIGN_IN_FAILED, upn }));
    return;
  }
  const pathname = req.url.split('?', 1)[0]!;
  reply.code(302).header('Set-Cookie', session.cookie).header('Cache-Control', 'no-store')
    .header('Location', returnUrlOf(req) ?? sitePathOf(pathname)).send();
}
