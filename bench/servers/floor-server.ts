// The floor under seed endpoint 1: the least a server on spemu's stack (fastify and
// better-sqlite3) does to answer it. One prepared point read of the item from the same
// SQLite file, the two users from memory (as spemu keeps them), and the same JSON body
// spemu sends, built and stringified per request. No authentication, no URL or OData
// parsing, no projection: what spemu does above this is its own cost.
//
//   node --import tsx bench/servers/floor-server.ts <spemu.db>   → READY <url>

import Database from 'better-sqlite3';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { hash, randomBytes, randomUUID } from 'node:crypto';
import { standardHeaders } from '../../src/wire/headers.ts';
import { CONTENT_TYPES } from '../../src/wire/dialect.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: floor-server.ts <spemu.db>');
const db = new Database(file, { readonly: true, fileMustExist: true });
db.pragma('journal_mode'); // WAL: readers alongside spemu

const webOf = db.prepare("select w.id as web_id from webs w join sites s on s.id = w.site_id where w.server_relative_url = '/sites/dev'").get() as { web_id: string } | undefined;
if (!webOf) throw new Error('no /sites/dev web in this workspace');
const listOf = (where: string) => db.prepare(`select row_id, id, table_name from lists where web_id = ? and ${where}`).get(webOf.web_id) as { row_id: number; id: string; table_name: string };
const tasks = listOf("title = 'Tasks'");
const userList = listOf('base_template = 112');
const lastName = (db.prepare("select column_name from fields where list_row_id = ? and internal_name = 'LastName'").get(userList.row_id) as { column_name: string }).column_name;
const users = new Map((db.prepare(`select id, guid, title, "${lastName}" as last_name from "${userList.table_name}"`).all() as Array<{ id: number; guid: string; title: string; last_name: string | null }>)
  .map((u) => [u.id, u]));
const item = db.prepare(`select id, guid, version, title, author_id, editor_id from "${tasks.table_name}" where id = ?`);

const link = `Web/Lists(guid'${tasks.id}')/Items(`;
const person = (id: number) => {
  const u = users.get(id);
  return u ? { 'odata.type': 'SP.Data.UserInfoItem', 'odata.id': u.guid, ID: u.id, Title: u.title, LastName: u.last_name } : null;
};

const app = Fastify({ logger: false });
app.get('/item/:id', (request, reply) => {
  const row = item.get(Number((request.params as { id: string }).id)) as { id: number; guid: string; version: number; title: string; author_id: number; editor_id: number } | undefined;
  if (!row) return reply.code(404).send();
  reply.header('content-type', 'application/json;odata=minimalmetadata;streaming=true;charset=utf-8');
  return reply.send(JSON.stringify({
    'odata.metadata': `http://${request.headers.host}/sites/dev/_api/$metadata#SP.ListData.TasksListItems/@Element`,
    'odata.type': 'SP.Data.TasksListItem', 'odata.id': row.guid, 'odata.etag': `"${row.version}"`, 'odata.editLink': `${link}${row.id})`,
    'Author@odata.navigationLinkUrl': `${link}${row.id})/Author`, Author: person(row.author_id),
    'Editor@odata.navigationLinkUrl': `${link}${row.id})/Editor`, Editor: person(row.editor_id),
    Title: row.title,
  }));
});
// The same answers shaped as SharePoint's must be (issue #13's floors, "SharePoint-shaped"): a
// bearer token taken from memory by a keyed hash of the header (as spemu remembers a proven one;
// none → 401), a fresh request id, the headers SharePoint sends on every response (spemu's own
// template, wire/headers.ts) and the item's ETag, written the cheapest way node takes them (one
// flat list to writeHead, fastify's reply handed over). Still no parsing, no permission check, no
// projection: the least any faithful server on this stack does for these two requests.
const prefix = randomBytes(32).toString('base64');
const proven = new Map<string, true>();
function sharePointShaped(request: FastifyRequest, reply: FastifyReply): boolean {
  const authorization = request.headers.authorization;
  if (!authorization) { reply.code(401).send(); return false; }
  const key = hash('sha256', `${prefix}\n${request.headers.host}\n${authorization}`, 'base64url');
  if (!proven.has(key)) proven.set(key, true);
  return true;
}
function answer(reply: FastifyReply, body: string, etag?: string): FastifyReply {
  reply.hijack();
  const flat: string[] = [];
  const headers = standardHeaders(randomUUID(), 'minimal');
  for (const name in headers) flat.push(name, headers[name]!);
  flat.push('Content-Type', CONTENT_TYPES.minimal, 'Content-Length', String(Buffer.byteLength(body)));
  if (etag) flat.push('ETag', etag);
  reply.raw.writeHead(200, flat);
  reply.raw.end(body);
  return reply;
}
app.get('/sp/item/:id', (request, reply) => {
  if (!sharePointShaped(request, reply)) return reply;
  const row = item.get(Number((request.params as { id: string }).id)) as { id: number; guid: string; version: number; title: string; author_id: number; editor_id: number } | undefined;
  if (!row) return reply.code(404).send();
  return answer(reply, JSON.stringify({
    'odata.metadata': `http://${request.headers.host}/sites/dev/_api/$metadata#SP.ListData.TasksListItems/@Element&$select=Title,Author/ID,Author/Title,Author/LastName,Editor/ID,Editor/Title,Editor/LastName`,
    'odata.type': 'SP.Data.TasksListItem', 'odata.id': randomUUID(), 'odata.etag': `"${row.version}"`, 'odata.editLink': `${link}${row.id})`,
    'Author@odata.navigationLinkUrl': `${link}${row.id})/Author`, Author: { ...person(row.author_id), 'odata.id': randomUUID() },
    'Editor@odata.navigationLinkUrl': `${link}${row.id})/Editor`, Editor: { ...person(row.editor_id), 'odata.id': randomUUID() },
    Title: row.title,
  }), `"${row.version}"`);
});
const web = db.prepare('select id, title from webs where id = ?').get(webOf.web_id) as { id: string; title: string };
app.get('/sp/web', (request, reply) => {
  if (!sharePointShaped(request, reply)) return reply;
  const url = `http://${request.headers.host}/sites/dev`;
  return answer(reply, JSON.stringify({
    'odata.metadata': `${url}/_api/$metadata#SP.Web/@Element&$select=Title`, 'odata.type': 'SP.Web', 'odata.id': `${url}/_api/Web`, 'odata.editLink': 'Web', Title: web.title,
  }));
});

const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`READY ${address}`);

process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
