// Validates a tenant file: JSON Schema first (schema/tenant.schema.json), then the
// cross-references the schema cannot express. Every problem is collected, never just the
// first, and each is located by a JSON Pointer into the document.

import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from 'ajv';
import type { TenantFile } from './types.ts';
import { sectionProblems } from './projectdata.ts';
import { contentFileProblems, libraryProblems } from './library-problems.ts';
import { formulaColumns, formulaProblem } from './formula-problems.ts';
import { permissionProblems } from './permission-problems.ts';
import { certificateOf } from '../identity/apps.ts';
import { DEFAULT_LIBRARY, DOCUMENT_LIBRARY_TEMPLATE, TEAM_SITE_LIBRARIES } from '../domain/templates.ts';
import { RATING_FIELDS } from '../domain/ratings.ts';

export interface TenantProblem {
  /** JSON Pointer into the tenant document, e.g. `/sites/0/lists/1/items/3/Priority`; `` for the whole file. */
  path: string;
  message: string;
}

export class TenantFileError extends Error {
  readonly problems: TenantProblem[];

  constructor(problems: TenantProblem[], heading = 'Invalid tenant file') {
    const lines = problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message));
    super(`${heading}:\n${lines.join('\n')}`);
    this.name = 'TenantFileError';
    this.problems = problems;
  }
}

/** Checks a parsed tenant document; throws a TenantFileError listing every problem. */
export function validateTenant(data: unknown): TenantFile {
  const problems = tenantProblems(data);
  if (problems.length > 0) throw new TenantFileError(problems);
  return data as TenantFile;
}

/** Reads, parses and validates a tenant file, and checks that user pictures and content files exist. */
export async function loadTenantFile(path: string): Promise<{ tenant: TenantFile; baseDir: string }> {
  const file = resolve(path);
  const heading = `Cannot load tenant file ${file}`;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new TenantFileError([{ path: '', message: missing ? 'file not found' : (error as Error).message }], heading);
  }
  text = text.replace(/^\uFEFF/, ''); // editors on Windows may save a BOM, which JSON.parse rejects
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new TenantFileError([{ path: '', message: describeJsonError(text, error as Error) }], heading);
  }
  const baseDir = dirname(file);
  const problems = [...tenantProblems(data), ...(await pictureProblems(data, baseDir)), ...(await contentProblems(data, baseDir))];
  if (problems.length > 0) throw new TenantFileError(problems, heading);
  return { tenant: data as TenantFile, baseDir };
}

function describeJsonError(text: string, error: Error): string {
  const match = /position (\d+)/.exec(error.message);
  const position = match ? Number(match[1]) : /end of JSON input/.test(error.message) ? text.length : undefined;
  if (position === undefined) return `invalid JSON: ${error.message}`;
  const before = text.slice(0, position).split('\n');
  const line = before.length;
  const column = (before.at(-1)?.length ?? 0) + 1;
  return `invalid JSON at line ${line}, column ${column} (position ${position}): ${error.message}`;
}

async function pictureProblems(data: unknown, baseDir: string): Promise<TenantProblem[]> {
  const problems: TenantProblem[] = [];
  if (!isObject(data)) return problems;
  for (const [index, user] of objectsIn(data.users)) {
    const picture = user.picture;
    if (typeof picture !== 'string' || isAbsolute(picture)) continue; // the schema reports those
    const file = resolve(baseDir, picture);
    const isFile = await stat(file).then((s) => s.isFile(), () => false);
    if (!isFile) problems.push({ path: `/users/${index}/picture`, message: `file not found: ${file}` });
  }
  return problems;
}

async function contentProblems(data: unknown, baseDir: string): Promise<TenantProblem[]> {
  const problems: TenantProblem[] = [];
  if (!isObject(data)) return problems;
  const visit = async (web: Json, pointer: string): Promise<void> => {
    for (const [l, list] of objectsIn(web.lists)) problems.push(...(await contentFileProblems(list, `${pointer}/lists/${l}`, baseDir)));
    for (const [w, sub] of objectsIn(web.webs)) await visit(sub, `${pointer}/webs/${w}`);
  };
  for (const [s, site] of objectsIn(data.sites)) await visit(site, `/sites/${s}`);
  return problems;
}

function tenantProblems(data: unknown): TenantProblem[] {
  const validate = schemaValidator();
  const fromSchema = validate(data) ? [] : (validate.errors ?? []).flatMap(schemaProblem);
  // Cross-checks run on invalid documents too (they skip what is malformed), so one run reports everything.
  const fromReferences = isObject(data) ? referenceProblems(data) : [];
  return [...fromSchema, ...fromReferences];
}

// ---------------------------------------------------------------------------------------
// JSON Schema

let compiledSchema: ValidateFunction | undefined;

function schemaValidator(): ValidateFunction {
  if (!compiledSchema) {
    // Same relative path from src/tenant and dist/tenant; `schema/` ships in the package.
    const schema = JSON.parse(readFileSync(new URL('../../schema/tenant.schema.json', import.meta.url), 'utf8'));
    // Loaded here, when a tenant file is first checked: not on every start (~15 ms of it).
    const { Ajv } = createRequire(import.meta.url)('ajv') as { Ajv: typeof AjvClass };
    const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
    ajv.addFormat('date-time', isDateTime);
    compiledSchema = ajv.compile(schema);
  }
  return compiledSchema;
}

/** Messages for schema rules whose default text (a regular expression, a property count) would not help. */
const SCHEMA_MESSAGES: Record<string, string> = {
  '#/definitions/documentPath/pattern': 'must be a path inside the list: names separated by /, no / at either end, no \\',
  '#/definitions/documentContent/minProperties': 'must have exactly one of text, base64 or file',
  '#/definitions/documentContent/maxProperties': 'must have exactly one of text, base64 or file',
  '#/definitions/documentContent/properties/file/pattern': "must be a path relative to the tenant file's folder",
};

function schemaProblem(error: ErrorObject): TenantProblem[] {
  const path = error.instancePath;
  const message = SCHEMA_MESSAGES[error.schemaPath];
  if (message) return [{ path, message }];
  switch (error.keyword) {
    case 'if':
      return []; // the failed `then` is reported by its own `required` error
    case 'required':
      return [{ path: pointer(path, error.params.missingProperty), message: 'is required' }];
    case 'additionalProperties':
      return [{ path: pointer(path, error.params.additionalProperty), message: 'is not an allowed property' }];
    case 'enum':
      return [{ path, message: `must be one of ${error.params.allowedValues.map(String).join(', ')}` }];
    case 'format':
      return [{ path, message: 'must be an ISO 8601 date-time with a timezone, e.g. 2026-01-05T10:00:00Z' }];
    case 'type':
      if (path === '') return [{ path, message: 'the document must be a JSON object' }];
  }
  return [{ path, message: error.message ?? `fails ${error.keyword}` }];
}

// ---------------------------------------------------------------------------------------
// Cross-references

type Json = Record<string, unknown>;

const HISTORY_KEYS = new Set(['author', 'editor', 'created', 'modified']);
/** An item's or a file's unique permissions (permission-problems.ts checks them), so no field's name. */
const PERMISSIONS_KEY = 'permissions';
/** A file's keys besides its field values and history. */
const DOCUMENT_KEYS = new Set(['path', 'content']);
const BUILT_IN_FIELDS = ['ID', 'Id', 'Title', 'Created', 'Modified', 'Author', 'Editor', 'GUID', 'Attachments', 'ContentTypeId', 'FileSystemObjectType'];
const BUILT_IN_LOWER = new Set(BUILT_IN_FIELDS.map((name) => name.toLowerCase()));
const SITE_ROLES = ['owners', 'members', 'visitors'] as const;
/** Field options and the field types they apply to. */
const OPTION_TYPES: Record<string, string[]> = {
  choices: ['Choice', 'MultiChoice'],
  lookupList: ['Lookup', 'LookupMulti'],
  lookupField: ['Lookup', 'LookupMulti'],
  maxLength: ['Text'],
  richText: ['Note'],
  dateOnly: ['DateTime', 'Calculated'],
  formula: ['Calculated'],
  outputType: ['Calculated'],
  min: ['Number', 'Currency', 'Integer'],
  max: ['Number', 'Currency', 'Integer'],
};
/** Multi-valued types: an array of values of the single type. */
const MULTI_OF: Record<string, string> = { MultiChoice: 'Choice', UserMulti: 'User', LookupMulti: 'Lookup' };
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Directory {
  /** Lower-case UPNs. */
  users: Set<string>;
  /** Lower-case group ids. */
  groupIds: Set<string>;
  /** Lower-case group display name → how many groups bear it. */
  groupNames: Map<string, number>;
}

interface ListInfo {
  title: string;
  fieldNames: Set<string>;
  itemCount: number;
}

interface SiteContext {
  directory: Directory;
  /** Lower-case title → the site's list (first of duplicates). */
  lists: Map<string, ListInfo>;
  problems: TenantProblem[];
}

function referenceProblems(doc: Json): TenantProblem[] {
  const problems: TenantProblem[] = [];
  const directory = checkDirectory(doc, problems);
  checkHosts(doc, problems);
  const siteUrls = new Map<string, number>();
  for (const [index, site] of objectsIn(doc.sites)) {
    const url = stringOrUndefined(site.url);
    if (url !== undefined) noteUnique(siteUrls, url.toLowerCase(), index, `/sites/${index}/url`, (first) => `duplicate site URL "${url}" (also /sites/${first}/url)`, problems);
    checkSite(site, `/sites/${index}`, directory, problems);
    problems.push(...permissionProblems(site, `/sites/${index}`, (name) => principalProblem(name, directory), isObject(doc.tenant) ? stringOrUndefined(doc.tenant.id) : undefined));
  }
  checkApps(doc, siteUrls, problems);
  checkTrustedIssuers(doc, problems);
  if (isObject(doc.projectData)) {
    for (const key of Object.keys(doc.projectData)) {
      if (!siteUrls.has(key.toLowerCase())) problems.push({ path: pointer('/projectData', key), message: `"${key}" is not the URL of a site in sites` });
      const section = doc.projectData[key];
      if (!isObject(section)) continue;
      for (const p of sectionProblems(section)) {
        problems.push({ path: p.tokens.reduce<string>((path, token) => pointer(path, token), pointer('/projectData', key)), message: p.message });
      }
    }
  }
  return problems;
}

/** Unique client ids, readable certificates, Sites.Selected grants naming sites of the file. */
function checkApps(doc: Json, siteUrls: ReadonlyMap<string, number>, problems: TenantProblem[]): void {
  const ids = new Map<string, number>();
  for (const [index, app] of objectsIn(doc.apps)) {
    const id = stringOrUndefined(app.clientId);
    if (id !== undefined) noteUnique(ids, id.toLowerCase(), index, `/apps/${index}/clientId`, (first) => `duplicate client id "${id}" (also /apps/${first}/clientId)`, problems);
    for (const [c, cert] of objectsIn(app.certificates)) {
      if (typeof cert.pem !== 'string') continue;
      try {
        certificateOf(cert.pem);
      } catch {
        problems.push({ path: `/apps/${index}/certificates/${c}/pem`, message: 'not a PEM certificate node can read' });
      }
    }
    for (const [s, grant] of objectsIn(app.sites)) {
      const url = stringOrUndefined(grant.url);
      if (url !== undefined && !siteUrls.has(url.toLowerCase().replace(/(.)\/+$/, '$1'))) problems.push({ path: `/apps/${index}/sites/${s}/url`, message: `"${url}" is not the URL of a site in sites` });
    }
    const permissions = Array.isArray(app.permissions) ? app.permissions : [];
    if (objectsIn(app.sites).length > 0 && !permissions.includes('Sites.Selected')) {
      problems.push({ path: `/apps/${index}/sites`, message: 'sites are granted only with the Sites.Selected permission' });
    }
  }
}

/** Unique issuer ids, readable certificates. */
function checkTrustedIssuers(doc: Json, problems: TenantProblem[]): void {
  const ids = new Map<string, number>();
  for (const [index, issuer] of objectsIn(doc.trustedIssuers)) {
    const id = stringOrUndefined(issuer.issuerId);
    if (id !== undefined) noteUnique(ids, id.toLowerCase(), index, `/trustedIssuers/${index}/issuerId`, (first) => `duplicate issuer id "${id}" (also /trustedIssuers/${first}/issuerId)`, problems);
    const pem = isObject(issuer.certificate) ? issuer.certificate.pem : undefined;
    if (typeof pem !== 'string') continue;
    try {
      certificateOf(pem);
    } catch {
      problems.push({ path: `/trustedIssuers/${index}/certificate/pem`, message: 'not a PEM certificate node can read' });
    }
  }
}

/** The schema's uniqueItems is case-sensitive; host names are not. */
function checkHosts(doc: Json, problems: TenantProblem[]): void {
  if (!isObject(doc.tenant) || !Array.isArray(doc.tenant.hosts)) return;
  const seen = new Map<string, number>();
  doc.tenant.hosts.forEach((host, index) => {
    if (typeof host === 'string') noteUnique(seen, host.toLowerCase(), index, `/tenant/hosts/${index}`, (first) => `duplicate host name "${host}" (also /tenant/hosts/${first})`, problems);
  });
}

function checkDirectory(doc: Json, problems: TenantProblem[]): Directory {
  const directory: Directory = { users: new Set(), groupIds: new Set(), groupNames: new Map() };
  const upns = new Map<string, number>();
  for (const [index, user] of objectsIn(doc.users)) {
    const upn = stringOrUndefined(user.upn);
    if (upn === undefined) continue;
    noteUnique(upns, upn.toLowerCase(), index, `/users/${index}/upn`, (first) => `duplicate UPN "${upn}" (also /users/${first}/upn)`, problems);
    directory.users.add(upn.toLowerCase());
  }
  const groupIds = new Map<string, number>();
  for (const [index, group] of objectsIn(doc.groups)) {
    const id = stringOrUndefined(group.id);
    if (id !== undefined) {
      noteUnique(groupIds, id.toLowerCase(), index, `/groups/${index}/id`, (first) => `duplicate group id "${id}" (also /groups/${first}/id)`, problems);
      directory.groupIds.add(id.toLowerCase());
    }
    const name = stringOrUndefined(group.displayName)?.toLowerCase();
    if (name !== undefined) directory.groupNames.set(name, (directory.groupNames.get(name) ?? 0) + 1);
  }
  for (const [index, group] of objectsIn(doc.groups)) {
    const ownId = stringOrUndefined(group.id)?.toLowerCase();
    for (const [m, member] of stringsIn(group.members)) {
      const key = member.toLowerCase();
      const path = `/groups/${index}/members/${m}`;
      if (key === ownId) problems.push({ path, message: 'a group cannot be a member of itself' });
      else if (!directory.users.has(key) && !directory.groupIds.has(key)) problems.push({ path, message: `"${member}" is neither a user UPN nor a group id` });
    }
  }
  return directory;
}

function checkSite(site: Json, base: string, directory: Directory, problems: TenantProblem[]): void {
  for (const role of SITE_ROLES) {
    for (const [index, name] of stringsIn(site[role])) {
      const problem = principalProblem(name, directory);
      if (problem) problems.push({ path: `${base}/${role}/${index}`, message: problem });
    }
  }
  checkWeb(site, base, directory, problems, new Map());
}

/**
 * A web's site columns and lists (the root web's are the site's), then its subwebs: URL
 * segments unique among siblings, none at a list's URL. `inherited`: the parents' site
 * columns by lower-case name, which this web's lists (and subwebs) may use too.
 */
function checkWeb(web: Json, base: string, directory: Directory, problems: TenantProblem[], inherited: ReadonlyMap<string, Json>): void {
  const available = checkLists(web, base, directory, problems, inherited);
  const listUrls = new Set([...TEAM_SITE_LIBRARIES.map((l) => l.relativeUrl.toLowerCase()), 'lists',
    ...objectsIn(web.lists).flatMap(([, l]) => stringOrUndefined(l.url)?.toLowerCase().split('/')[0] ?? [])]);
  const segments = new Map<string, number>();
  for (const [index, sub] of objectsIn(web.webs)) {
    const url = stringOrUndefined(sub.url);
    const path = `${base}/webs/${index}`;
    if (url !== undefined) {
      noteUnique(segments, url.toLowerCase(), index, `${path}/url`, (first) => `duplicate web URL "${url}" (also ${base}/webs/${first}/url)`, problems);
      if (listUrls.has(url.toLowerCase())) problems.push({ path: `${path}/url`, message: `"${url}" is the URL of a list or library of the parent web` });
    }
    checkWeb(sub, path, directory, problems, available);
  }
}

/** The web's site columns and lists; returns the site columns the web can use (its parents' and its own). */
function checkLists(web: Json, base: string, directory: Directory, problems: TenantProblem[], inherited: ReadonlyMap<string, Json>): Map<string, Json> {
  const lists = objectsIn(web.lists);
  const context: SiteContext = { directory, lists: new Map(), problems };
  const titles = new Map<string, number>();
  const urls = new Map<string, number>();
  for (const [index, list] of lists) {
    const title = stringOrUndefined(list.title);
    if (title !== undefined) {
      noteUnique(titles, title.toLowerCase(), index, `${base}/lists/${index}/title`, (first) => `duplicate list title "${title}" (also ${base}/lists/${first}/title)`, problems);
      if (!context.lists.has(title.toLowerCase())) context.lists.set(title.toLowerCase(), listInfo(title, list));
    }
    const url = stringOrUndefined(list.url);
    if (url !== undefined) noteUnique(urls, url.toLowerCase(), index, `${base}/lists/${index}/url`, (first) => `duplicate list URL "${url}" (also ${base}/lists/${first}/url)`, problems);
    checkDefaultLibrary(list, `${base}/lists/${index}`, problems);
  }
  const available = checkSiteColumns(web, base, context, inherited);
  for (const [index, list] of lists) checkList(list, `${base}/lists/${index}`, context, available);
  return available;
}

/** Site columns: names unique among the columns the web can use, not built-in; options and formulas as a list field's. */
function checkSiteColumns(web: Json, base: string, context: SiteContext, inherited: ReadonlyMap<string, Json>): Map<string, Json> {
  const available = new Map(inherited);
  const own = objectsIn(web.siteColumns);
  for (const [index, column] of own) {
    const path = `${base}/siteColumns/${index}`;
    const name = stringOrUndefined(column.name);
    if (name !== undefined) {
      if (BUILT_IN_LOWER.has(name.toLowerCase())) context.problems.push({ path: `${path}/name`, message: `"${name}" is a built-in field name` });
      else if (available.has(name.toLowerCase())) context.problems.push({ path: `${path}/name`, message: `duplicate site column name "${name}" (this web or a parent web has one)` });
      else available.set(name.toLowerCase(), column);
    }
    checkField(column, path, context);
  }
  const columns = formulaColumns(available.values());
  for (const [index, column] of own) {
    const problem = formulaProblem(column, columns);
    if (problem) context.problems.push({ path: `${base}/siteColumns/${index}/formula`, message: problem });
  }
  return available;
}

const isDefaultLibrary = (list: Json) => stringOrUndefined(list.title)?.toLowerCase() === DEFAULT_LIBRARY.title.toLowerCase();

/** The site's Documents library exists already: an entry of that title adds to it, so it cannot be another kind or place. */
function checkDefaultLibrary(list: Json, base: string, problems: TenantProblem[]): void {
  const url = stringOrUndefined(list.url);
  const ownUrl = url?.toLowerCase() === DEFAULT_LIBRARY.relativeUrl.toLowerCase();
  if (!isDefaultLibrary(list)) {
    if (ownUrl) problems.push({ path: `${base}/url`, message: `"${url}" is the URL of the site's ${DEFAULT_LIBRARY.title} library` });
    return;
  }
  if (list.template !== undefined && list.template !== DOCUMENT_LIBRARY_TEMPLATE) {
    problems.push({ path: `${base}/template`, message: `${DEFAULT_LIBRARY.title} is the site's own document library: its template is ${DOCUMENT_LIBRARY_TEMPLATE} (or leave it out)` });
  }
  if (url !== undefined && !ownUrl) problems.push({ path: `${base}/url`, message: `${DEFAULT_LIBRARY.title} is the site's own library, at "${DEFAULT_LIBRARY.relativeUrl}" (or leave url out)` });
}

function principalProblem(name: string, directory: Directory): string | undefined {
  const key = name.toLowerCase();
  if (directory.users.has(key) || directory.groupIds.has(key)) return undefined;
  const groups = directory.groupNames.get(key) ?? 0;
  if (groups === 1) return undefined;
  if (groups > 1) return `"${name}" names ${groups} groups; use the group id`;
  return `"${name}" is neither a user UPN nor a group id or display name`;
}

function listInfo(title: string, list: Json): ListInfo {
  const fieldNames = new Set(objectsIn(list.fields).flatMap(([, field]) => stringOrUndefined(field.name) ?? []));
  return { title, fieldNames, itemCount: Array.isArray(list.items) ? list.items.length : 0 };
}

function checkList(list: Json, base: string, context: SiteContext, siteColumns: ReadonlyMap<string, Json>): void {
  const { problems } = context;
  const fields = new Map<string, Json>();
  const lowerNames = new Map<string, number>();
  // The site columns the list uses come first: items give their values by the column's name.
  const used = new Set<string>();
  for (const [index, name] of stringsIn(list.siteColumns)) {
    const column = siteColumns.get(name.toLowerCase());
    const columnName = column && stringOrUndefined(column.name);
    if (!columnName) problems.push({ path: `${base}/siteColumns/${index}`, message: `no site column named "${name}" in this web or a parent web` });
    else if (!fields.has(columnName)) { fields.set(columnName, column); used.add(columnName.toLowerCase()); }
  }
  for (const [index, field] of objectsIn(list.fields)) {
    const path = `${base}/fields/${index}`;
    const name = stringOrUndefined(field.name);
    if (field.group !== undefined) problems.push({ path: `${path}/group`, message: 'applies only to site columns' });
    if (name !== undefined) {
      if (BUILT_IN_LOWER.has(name.toLowerCase())) problems.push({ path: `${path}/name`, message: `"${name}" is a built-in field name` });
      else if (used.has(name.toLowerCase())) problems.push({ path: `${path}/name`, message: `"${name}" is the name of a site column the list uses` });
      else if (name === PERMISSIONS_KEY) problems.push({ path: `${path}/name`, message: `"${name}" is where an item states its permissions; name the field otherwise` });
      else noteUnique(lowerNames, name.toLowerCase(), index, `${path}/name`, (first) => `duplicate field name "${name}" (also ${base}/fields/${first}/name)`, problems);
      if (!fields.has(name)) fields.set(name, field);
    }
    checkField(field, path, context);
  }
  const columns = formulaColumns(fields.values());
  for (const [index, field] of objectsIn(list.fields)) {
    const problem = formulaProblem(field, columns);
    if (problem) problems.push({ path: `${base}/fields/${index}/formula`, message: problem });
  }
  // The rating fields the settings add must not meet a field of the same name.
  if (list.ratings !== undefined) {
    for (const name of fields.keys()) {
      if (RATING_NAMES.has(name.toLowerCase())) problems.push({ path: `${base}/ratings`, message: `the list has a field named "${name}", which rating settings add` });
    }
  }
  const listTitle = stringOrUndefined(list.title) ?? '';
  for (const [index, item] of objectsIn(list.items)) {
    checkItem(item, `${base}/items/${index}`, fields, listTitle, context);
  }
  const isLibrary = list.template === DOCUMENT_LIBRARY_TEMPLATE || (list.template === undefined && isDefaultLibrary(list));
  problems.push(...libraryProblems(list, base, isLibrary));
  for (const [index, file] of objectsIn(list.files)) {
    checkItem(file, `${base}/files/${index}`, fields, listTitle, context, DOCUMENT_KEYS);
  }
}

const RATING_NAMES: ReadonlySet<string> = new Set(RATING_FIELDS.map((f) => f.internalName.toLowerCase()));

function checkField(field: Json, path: string, context: SiteContext): void {
  const { problems } = context;
  const type = stringOrUndefined(field.type);
  if (type === undefined) return;
  for (const [option, types] of Object.entries(OPTION_TYPES)) {
    if (field[option] !== undefined && !types.includes(type)) problems.push({ path: `${path}/${option}`, message: `applies only to ${types.join(', ')} fields` });
  }
  if (typeof field.min === 'number' && typeof field.max === 'number' && field.max < field.min) {
    problems.push({ path: `${path}/max`, message: `is less than min (${field.min})` });
  }
  const lookupList = stringOrUndefined(field.lookupList);
  if (lookupList !== undefined && isOrMultiOf(type, 'Lookup')) {
    const target = context.lists.get(lookupList.toLowerCase());
    const lookupField = stringOrUndefined(field.lookupField);
    if (!target) problems.push({ path: `${path}/lookupList`, message: `no list titled "${lookupList}" in this site` });
    else if (lookupField !== undefined && !BUILT_IN_FIELDS.includes(lookupField) && !target.fieldNames.has(lookupField)) {
      problems.push({ path: `${path}/lookupField`, message: `no field named "${lookupField}" in list "${target.title}"` });
    }
  }
  if (field.default !== undefined) checkValue(field, field.default, `${path}/default`, context);
}

/** Whether `type` is `single` or its multi-valued form. */
function isOrMultiOf(type: string, single: string): boolean {
  return type === single || MULTI_OF[type] === single;
}

/** An item's (or a file's: `reserved` are its other keys) history and field values. */
function checkItem(item: Json, path: string, fields: Map<string, Json>, listTitle: string, context: SiteContext, reserved = new Set<string>()): void {
  const { problems, directory } = context;
  for (const key of ['author', 'editor'] as const) {
    const upn = item[key];
    if (typeof upn === 'string' && !directory.users.has(upn.toLowerCase())) problems.push({ path: `${path}/${key}`, message: `"${upn}" is not a directory user` });
  }
  const { created, modified } = item;
  if (typeof created === 'string' && typeof modified === 'string' && isDateTime(created) && isDateTime(modified) && Date.parse(modified) < Date.parse(created)) {
    problems.push({ path: `${path}/modified`, message: `is before created (${created})` });
  }
  for (const [key, value] of Object.entries(item)) {
    if (HISTORY_KEYS.has(key) || reserved.has(key) || key === 'Title' || key === PERMISSIONS_KEY) continue;
    const field = fields.get(key);
    if (field) {
      checkValue(field, value, pointer(path, key), context);
      continue;
    }
    const sameButCase = [...fields.keys()].find((name) => name.toLowerCase() === key.toLowerCase());
    const hint = sameButCase ? ` (did you mean "${sameButCase}"? names are case-sensitive)` : '';
    problems.push({ path: pointer(path, key), message: `no field named "${key}" in list "${listTitle}"${hint}` });
  }
}

/** Checks one field value (an item's, or a field default) against the field's type. */
function checkValue(field: Json, value: unknown, path: string, context: SiteContext): void {
  if (value === null) return; // no value
  const type = String(field.type);
  const single = MULTI_OF[type];
  if (single === undefined) {
    const problem = singleValueProblem(type, field, value, context);
    if (problem) context.problems.push({ path, message: problem });
    return;
  }
  if (!Array.isArray(value)) {
    context.problems.push({ path, message: `must be an array (${type} field)` });
    return;
  }
  value.forEach((element: unknown, index) => {
    const problem = singleValueProblem(single, field, element, context);
    if (problem) context.problems.push({ path: `${path}/${index}`, message: problem });
  });
}

function singleValueProblem(type: string, field: Json, value: unknown, context: SiteContext): string | undefined {
  switch (type) {
    case 'Text': {
      if (typeof value !== 'string') return 'must be a string';
      const maxLength = typeof field.maxLength === 'number' ? field.maxLength : 255;
      return value.length > maxLength ? `is longer than ${maxLength} characters` : undefined;
    }
    case 'Note':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'Number':
    case 'Currency':
    case 'Integer':
      return numberProblem(type, field, value);
    case 'Boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'DateTime':
      return typeof value === 'string' && (isDateTime(value) || isDate(value)) ? undefined
        : 'must be an ISO 8601 date-time with a timezone (e.g. 2026-01-05T10:00:00Z) or a date (2026-01-05)';
    case 'Choice': {
      if (typeof value !== 'string') return 'must be a string';
      const choices = Array.isArray(field.choices) ? field.choices : undefined; // no choices: nothing to check against
      return choices && !choices.includes(value) ? `"${value}" is not one of the choices (${choices.join(', ')})` : undefined;
    }
    case 'URL':
      return urlProblem(value);
    case 'User':
      if (typeof value !== 'string') return 'must be a user UPN';
      return context.directory.users.has(value.toLowerCase()) ? undefined : `"${value}" is not a directory user`;
    case 'Lookup':
      return lookupProblem(field, value, context);
    case 'Guid':
      return typeof value === 'string' && GUID.test(value) ? undefined : 'must be a GUID';
    case 'Calculated':
      return "is computed from the field's formula: leave it out";
    default:
      return undefined; // an unknown type is a schema problem, reported already
  }
}

function numberProblem(type: string, field: Json, value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
  if (type === 'Integer' && !Number.isInteger(value)) return 'must be an integer';
  if (typeof field.min === 'number' && value < field.min) return `is less than the minimum ${field.min}`;
  if (typeof field.max === 'number' && value > field.max) return `is more than the maximum ${field.max}`;
  return undefined;
}

function urlProblem(value: unknown): string | undefined {
  const shape = 'must be a URL string or { "Url": "…", "Description": "…" }';
  const isValidUrl = (url: unknown) => typeof url === 'string' && (URL.canParse(url) || url.startsWith('/'));
  if (!isObject(value)) return isValidUrl(value) ? undefined : shape;
  if (Object.keys(value).some((key) => key !== 'Url' && key !== 'Description')) return shape;
  if (value.Description !== undefined && typeof value.Description !== 'string') return 'Description must be a string';
  return isValidUrl(value.Url) ? undefined : 'Url must be an absolute or server-relative URL';
}

function lookupProblem(field: Json, value: unknown, context: SiteContext): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) return 'must be an item id (a positive integer)';
  const title = stringOrUndefined(field.lookupList);
  const target = title === undefined ? undefined : context.lists.get(title.toLowerCase());
  // Items get IDs 1, 2, … in file order, so an id beyond the target's item count names nothing.
  if (target && value > target.itemCount) return `list "${target.title}" has no item ${value} (it has ${target.itemCount})`;
  return undefined;
}

// ---------------------------------------------------------------------------------------
// Helpers

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** ISO 8601 / RFC 3339 date-time with a timezone, and a real calendar date and time. */
function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const [, date = '', hour, minute, second, , , zoneHour = '0', zoneMinute = '0'] = match;
  return isDate(date) && Number(hour) < 24 && Number(minute) < 60 && Number(second) < 60 && Number(zoneHour) < 24 && Number(zoneMinute) < 60;
}

function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The object elements of an array, with their indexes; nothing if not an array. */
function objectsIn(value: unknown): [number, Json][] {
  return Array.isArray(value) ? value.flatMap((element, index): [number, Json][] => (isObject(element) ? [[index, element]] : [])) : [];
}

function stringsIn(value: unknown): [number, string][] {
  return Array.isArray(value) ? value.flatMap((element, index): [number, string][] => (typeof element === 'string' ? [[index, element]] : [])) : [];
}

/** Appends one reference token to a JSON Pointer, escaping `~` and `/`. */
function pointer(base: string, token: unknown): string {
  return `${base}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** Records `key` as seen at `index`; reports `path` if an earlier element had it. */
function noteUnique(seen: Map<string, number>, key: string, index: number, path: string, message: (first: number) => string, problems: TenantProblem[]): void {
  const first = seen.get(key);
  if (first === undefined) seen.set(key, index);
  else problems.push({ path, message: message(first) });
}
