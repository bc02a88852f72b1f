// A CSOM request body ([MS-CSOM] 2.2.3): `<Request>` with `<Actions>` run in order and
// `<ObjectPaths>` they name by id. Read into plain data here; nothing runs. The XML is checked
// well-formed by the same reader CAML uses (query/caml/xml.ts: fast-xml-parser, loaded on first use).

import { CamlError } from '../../../query/caml/errors.ts';
import { readCamlXml, type CamlElement } from '../../../query/caml/xml.ts';
import { csomErrors } from './errors.ts';

/** A parameter's value: a scalar, null, an object path's object, or a creation-information structure. */
export type CsomValue =
  | { kind: 'scalar'; value: string | number | boolean | null }
  | { kind: 'path'; pathId: string }
  | { kind: 'structure'; typeId: string; properties: Map<string, CsomValue> };

export type ObjectPath =
  | { kind: 'StaticProperty'; id: string; typeId: string; name: string }
  | { kind: 'StaticMethod'; id: string; typeId: string; name: string; parameters: CsomValue[] }
  | { kind: 'Property'; id: string; parentId: string; name: string }
  | { kind: 'Method'; id: string; parentId: string; name: string; parameters: CsomValue[] }
  | { kind: 'Identity'; id: string; name: string }
  | { kind: 'Constructor'; id: string; typeId: string; parameters: CsomValue[] };

/** What a Query asks of an object: all its default properties, or those named (each maybe with its own query). */
export interface ObjectQuery {
  selectAll: boolean;
  properties: Array<{ name: string; scalar: boolean; selectAll: boolean; query?: ObjectQuery | undefined }>;
}

export type Action =
  | { kind: 'ObjectPath'; id: string; pathId: string }
  | { kind: 'ObjectIdentityQuery'; id: string; pathId: string }
  | { kind: 'Query'; id: string; pathId: string; query: ObjectQuery; childItemQuery: boolean }
  | { kind: 'SetProperty'; id: string; pathId: string; name: string; value: CsomValue }
  | { kind: 'SetStaticProperty'; id: string; typeId: string; name: string; value: CsomValue }
  | { kind: 'Method'; id: string; pathId: string; name: string; parameters: CsomValue[] }
  | { kind: 'StaticMethod'; id: string; typeId: string; name: string; parameters: CsomValue[] };

export interface CsomRequest {
  actions: Action[];
  paths: Map<string, ObjectPath>;
}

export function parseCsomRequest(xml: string): CsomRequest {
  let root: CamlElement;
  try {
    root = readCamlXml(xml);
  } catch (e) {
    if (e instanceof CamlError) throw csomErrors.invalidRequest(e.message);
    throw e;
  }
  if (root.name !== 'Request') throw csomErrors.invalidRequest('The root element is not Request.');
  const paths = new Map<string, ObjectPath>();
  for (const el of child(root, 'ObjectPaths')?.children ?? []) {
    const path = objectPath(el);
    paths.set(path.id, path);
  }
  const actions = (child(root, 'Actions')?.children ?? []).map(action);
  return { actions, paths };
}

const child = (el: CamlElement, name: string) => el.children.find((c) => c.name === name);

function need(el: CamlElement, name: string): string {
  const v = el.attributes[name];
  if (v === undefined) throw csomErrors.invalidRequest(`The ${el.name} element has no ${name} attribute.`);
  return v;
}

const parametersOf = (el: CamlElement): CsomValue[] => (child(el, 'Parameters')?.children ?? []).filter((c) => c.name === 'Parameter').map(value);

function objectPath(el: CamlElement): ObjectPath {
  const id = need(el, 'Id');
  switch (el.name) {
    case 'StaticProperty': return { kind: 'StaticProperty', id, typeId: need(el, 'TypeId'), name: need(el, 'Name') };
    case 'StaticMethod': return { kind: 'StaticMethod', id, typeId: need(el, 'TypeId'), name: need(el, 'Name'), parameters: parametersOf(el) };
    case 'Property': return { kind: 'Property', id, parentId: need(el, 'ParentId'), name: need(el, 'Name') };
    case 'Method': return { kind: 'Method', id, parentId: need(el, 'ParentId'), name: need(el, 'Name'), parameters: parametersOf(el) };
    case 'Identity': return { kind: 'Identity', id, name: need(el, 'Name') };
    case 'Constructor': return { kind: 'Constructor', id, typeId: need(el, 'TypeId'), parameters: parametersOf(el) };
    default: throw csomErrors.invalidRequest(`Unknown object path element ${el.name}.`);
  }
}

function action(el: CamlElement): Action {
  const id = need(el, 'Id');
  switch (el.name) {
    case 'ObjectPath': return { kind: 'ObjectPath', id, pathId: need(el, 'ObjectPathId') };
    case 'ObjectIdentityQuery': return { kind: 'ObjectIdentityQuery', id, pathId: need(el, 'ObjectPathId') };
    case 'Query': {
      const query = child(el, 'Query');
      return { kind: 'Query', id, pathId: need(el, 'ObjectPathId'), query: query ? objectQuery(query) : { selectAll: true, properties: [] }, childItemQuery: child(el, 'ChildItemQuery') !== undefined };
    }
    case 'SetProperty': return { kind: 'SetProperty', id, pathId: need(el, 'ObjectPathId'), name: need(el, 'Name'), value: parameterOf(el) };
    case 'SetStaticProperty': return { kind: 'SetStaticProperty', id, typeId: need(el, 'TypeId'), name: need(el, 'Name'), value: parameterOf(el) };
    case 'Method': return { kind: 'Method', id, pathId: need(el, 'ObjectPathId'), name: need(el, 'Name'), parameters: parametersOf(el) };
    case 'StaticMethod': return { kind: 'StaticMethod', id, typeId: need(el, 'TypeId'), name: need(el, 'Name'), parameters: parametersOf(el) };
    default: throw csomErrors.invalidRequest(`Unknown action element ${el.name}.`);
  }
}

function parameterOf(el: CamlElement): CsomValue {
  const p = child(el, 'Parameter');
  if (!p) throw csomErrors.invalidRequest(`The ${el.name} element has no Parameter.`);
  return value(p);
}

function objectQuery(el: CamlElement): ObjectQuery {
  const properties = (child(el, 'Properties')?.children ?? []).filter((c) => c.name === 'Property').map((p) => {
    const nested = child(p, 'Query');
    return { name: need(p, 'Name'), scalar: p.attributes.ScalarProperty === 'true', selectAll: p.attributes.SelectAll === 'true', query: nested ? objectQuery(nested) : undefined };
  });
  return { selectAll: el.attributes.SelectAllProperties === 'true', properties };
}

/** A `<Parameter>` or a structure's `<Property>`: by its Type (String, Boolean, Int32, Guid, Null, …), an ObjectPathId, or a TypeId structure. */
function value(el: CamlElement): CsomValue {
  if (el.attributes.ObjectPathId !== undefined) return { kind: 'path', pathId: el.attributes.ObjectPathId };
  if (el.attributes.TypeId !== undefined) {
    const properties = new Map<string, CsomValue>();
    for (const p of el.children.filter((c) => c.name === 'Property')) properties.set(need(p, 'Name'), value(p));
    return { kind: 'structure', typeId: el.attributes.TypeId, properties };
  }
  const type = el.attributes.Type ?? 'String';
  switch (type) {
    case 'Null': return { kind: 'scalar', value: null };
    case 'String': case 'Guid': case 'Enum': return { kind: 'scalar', value: type === 'Enum' ? Number(el.text) : el.text };
    case 'Boolean':
      if (el.text !== 'true' && el.text !== 'false') throw csomErrors.badParameter(el.attributes.Name ?? el.name);
      return { kind: 'scalar', value: el.text === 'true' };
    case 'Int32': case 'Int64': case 'Double': case 'Single': case 'Byte': case 'Int16': case 'UInt32': {
      const n = Number(el.text);
      if (el.text.trim() === '' || !Number.isFinite(n)) throw csomErrors.badParameter(el.attributes.Name ?? el.name);
      return { kind: 'scalar', value: n };
    }
    default: throw csomErrors.notImplemented(`parameters of type ${type}`);
  }
}
