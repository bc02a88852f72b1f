// What a request costs in resource units. SharePoint documents costs for Microsoft Graph only
// ("CSOM and REST have no fixed cost; estimate about 2"): 1 for a single item or a download,
// 2 for a multi-item query or any write, 5 for anything about permissions. spemu applies the
// same scale to REST by what the URL addresses (an inference, docs/compatibility.md).

/** Paths about permissions: role assignments and definitions, inheritance, effective permissions. */
const PERMISSIONS = /(roleassignments|roledefinitions|breakroleinheritance|resetroleinheritance|effectivebasepermissions|getusereffectivepermissions|effectivepermissions|addroleassignment|removeroleassignment|sharingInformation|shareobject)/i;

/** A last segment that names many things: a collection, or a query over one. */
const MANY = /^(items|lists|fields|views|files|folders|webs|siteusers|sitegroups|users|groups|contenttypes|availablecontenttypes|availablefields|versions|attachmentfiles|features|usercustomactions|quicklaunch|topnavigationbar|children|viewfields|getitems|getchanges|getlistitemchangessincetoken|renderlistdata|renderlistdataasstream|getsubwebsfilteredforcurrentuser|query|postquery)$/i;

export type RequestCost = 0 | 1 | 2 | 5;

/**
 * The cost of one request (a `$batch` part is one; the `$batch` envelope costs nothing, its
 * parts are counted alone): 5 about permissions (also `$expand` of role assignments), 2 for a
 * write or a collection read, 1 for a single thing or a file's bytes.
 */
export function requestCost(method: string, url: string, tunnelled?: string): RequestCost {
  const [rawPath = '', query = ''] = url.split('?', 2);
  let path = rawPath;
  try { path = decodeURIComponent(rawPath); } catch { /* counted as sent */ }
  const api = /\/_api(?:\/(.*))?$/i.exec(path);
  if (api && /^\$batch\/?$/i.test(api[1] ?? '')) return 0;
  const verb = (method === 'POST' && tunnelled ? tunnelled : method).toUpperCase();
  let expand = '';
  try { expand = new URLSearchParams(query).get('$expand') ?? ''; } catch { /* no expand */ }
  if (PERMISSIONS.test(api?.[1] ?? '') || /roleassignments|permissions/i.test(expand)) return 5;
  if (verb !== 'GET' && verb !== 'HEAD') return 2;
  // Outside /_api: a file's own URL, download.aspx, a profile photo — one download.
  if (!api) return 1;
  const last = (api[1] ?? '').replace(/\/+$/, '').split('/').pop() ?? '';
  const queried = /(^|&)(%24|\$)(filter|top|orderby|skiptoken)=/i.test(query);
  return MANY.test(last.replace(/\(.*\)$/, (m) => (m === '()' ? '' : m))) || queried ? 2 : 1;
}
