// Which notification URLs spemu calls. Only absolute http: and https: URLs without
// credentials; with `--webhook-allow`, only those matching a pattern:
//   - `host`, `host:port`, `*.example.com`, `10.0.0.*`: matched against the URL's host (and
//     port, if the pattern names one), `*` standing for any run of characters;
//   - a pattern with `://` (`https://hooks.example.com/api/*`): matched against the whole URL
//     (origin and path; the query is ignored), `*` likewise.
// A spemu shared by several people would otherwise call any address it can reach on anyone's
// behalf — internal services included (server-side request forgery).

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

const globToRegExp = (glob: string): RegExp =>
  new RegExp(`^${glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i');

const defaultPort = (url: URL): string => url.port || (url.protocol === 'https:' ? '443' : '80');

export function allowedBy(url: URL, pattern: string): boolean {
  if (pattern.includes('://')) return globToRegExp(pattern).test(`${url.origin}${url.pathname}`);
  const withPort = /:[\d*]+$/.test(pattern) && !pattern.startsWith('[');
  const target = withPort ? `${url.hostname}:${defaultPort(url)}` : url.hostname;
  return globToRegExp(pattern).test(target);
}

export function checkNotificationUrl(text: string, allow: readonly string[]): UrlVerdict {
  let url: URL;
  try { url = new URL(text); } catch { return { ok: false, reason: 'not an absolute URL' }; }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `the scheme ${url.protocol} is not http: or https:` };
  if (url.username || url.password) return { ok: false, reason: 'credentials in the URL' };
  if (allow.length > 0 && !allow.some((p) => allowedBy(url, p))) return { ok: false, reason: 'not allowed by --webhook-allow' };
  return { ok: true, url };
}

/** A URL as logs may show it: no query (receivers put keys there) and no fragment. */
export const loggableUrl = (text: string): string => {
  try { const u = new URL(text); return `${u.origin}${u.pathname}`; } catch { return '(not a URL)'; }
};
