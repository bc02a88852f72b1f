// `…/_api/ProjectData/$metadata`: the CSDL document, laid out as Project's reference shows it
// (learn.microsoft.com/previous-versions/office/project-odata, "Schema: ReportingData" and
// "Schema: Microsoft.Office.Project.Server"): entity types and associations in a
// `ReportingData` schema, the `ReportingData` entity container in a second schema named
// `Microsoft.Office.Project.Server`. One line, no indentation, as WCF Data Services writes it.

import { associationName } from '../../domain/projectdata/catalogue.ts';
import type { PdEntitySet, PdNavigation } from '../../domain/projectdata/model.ts';
import { NAMESPACE } from '../../domain/projectdata/model.ts';
import { xmlAttr } from './xml.ts';

const EDMX = 'http://schemas.microsoft.com/ado/2007/06/edmx';
const METADATA = 'http://schemas.microsoft.com/ado/2007/08/dataservices/metadata';
const DATA = 'http://schemas.microsoft.com/ado/2007/08/dataservices';
/** The CSDL namespace the reference's Schema elements declare (EDM 1.1), not V3's 2009/11. */
const EDM = 'http://schemas.microsoft.com/ado/2007/05/edm';
/** The schema holding the container (reference: "for internal queries of the Reporting database"). */
const CONTAINER_NAMESPACE = 'Microsoft.Office.Project.Server';

interface End { type: string; role: string; set: string; multiplicity: '*' | '0..1' }
interface Association { name: string; ends: [End, End]; unidirectional: boolean }
interface NavRoles { association: string; fromRole: string; toRole: string }

/**
 * How a navigation's association is named, as the reference's names follow two patterns:
 * one-way `Source_Nav` with roles `Source` and `Nav` (TaskBaseline_Project), and two-way
 * `A_NavA_B_NavB` with roles `A_NavA` and `B_NavB` (Project_Tasks_Task_Project).
 * Navigations the catalogue does not name (none today) get the one-way form.
 */
function navRoles(set: PdEntitySet, nav: PdNavigation): NavRoles {
  const association = associationName(set.entityType, nav.name) ?? `${set.entityType}_${nav.name}`;
  if (association === `${set.entityType}_${nav.name}`) return { association, fromRole: set.entityType, toRole: nav.name };
  const fromRole = `${set.entityType}_${nav.name}`;
  if (association.startsWith(`${fromRole}_`)) return { association, fromRole, toRole: association.slice(fromRole.length + 1) };
  if (association.endsWith(`_${fromRole}`)) return { association, fromRole, toRole: association.slice(0, -fromRole.length - 1) };
  throw new Error(`association ${association} has no role for ${set.name}.${nav.name}`);
}

/** Every association the sets' navigations use, once each, in first-use order. */
function associations(sets: readonly PdEntitySet[]): Association[] {
  const byName = new Map(sets.map((s) => [s.name, s]));
  const found = new Map<string, Association>();
  for (const set of sets) {
    for (const nav of set.navigations) {
      const target = byName.get(nav.target);
      if (!target) continue;
      const { association, fromRole, toRole } = navRoles(set, nav);
      const unidirectional = fromRole === set.entityType && toRole === nav.name;
      const toEnd: End = { type: target.entityType, role: toRole, set: target.name, multiplicity: nav.many ? '*' : '0..1' };
      const existing = found.get(association);
      if (existing) {
        // The partner navigation of a two-way association: it states the other end's multiplicity.
        const end = existing.ends.find((e) => e.role === toRole);
        if (end) end.multiplicity = toEnd.multiplicity;
        continue;
      }
      // The source end is `*` until a partner says otherwise (every one-way association in the reference is).
      const fromEnd: End = { type: set.entityType, role: fromRole, set: set.name, multiplicity: '*' };
      // Two-way: the end named first in the association's name comes first (as the reference's AssociationSet does).
      const ends: [End, End] = unidirectional || association.startsWith(`${fromRole}_`) ? [fromEnd, toEnd] : [toEnd, fromEnd];
      found.set(association, { name: association, ends, unidirectional });
    }
  }
  return [...found.values()];
}

function entityType(set: PdEntitySet, byName: Map<string, PdEntitySet>): string {
  const keys = set.key.map((k) => `<PropertyRef Name="${xmlAttr(k)}" />`).join('');
  const properties = set.properties.map((p) =>
    `<Property Name="${xmlAttr(p.name)}" Type="${p.type}"${set.key.includes(p.name) || !p.nullable ? ' Nullable="false"' : ''} />`).join('');
  const navigations = set.navigations.filter((n) => byName.has(n.target)).map((n) => {
    const { association, fromRole, toRole } = navRoles(set, n);
    return `<NavigationProperty Name="${xmlAttr(n.name)}" Relationship="${NAMESPACE}.${xmlAttr(association)}" ToRole="${xmlAttr(toRole)}" FromRole="${xmlAttr(fromRole)}" />`;
  }).join('');
  return `<EntityType Name="${xmlAttr(set.entityType)}"><Key>${keys}</Key>${properties}${navigations}</EntityType>`;
}

/**
 * The AssociationSet name. Two-way: the reference's one example,
 * `Relation_Projects_Tasks_Tasks_Project_Tasks_Project_Projects_Tasks`, is
 * `Relation_{SetA}_{NavA}_{SetB}_{NavB}_{SetB}_{NavB}_{SetA}_{NavA}`. One-way (INFERRED):
 * `Relation_{Set}_{Nav}_{TargetSet}`. The reference calls these internal and undocumented.
 */
function associationSetName(a: Association): string {
  const [x, y] = a.ends;
  const nav = (e: End) => e.role.slice(e.type.length + 1);
  if (a.unidirectional) return `Relation_${x.set}_${y.role}_${y.set}`;
  const ab = `${x.set}_${nav(x)}_${y.set}_${nav(y)}`;
  const ba = `${y.set}_${nav(y)}_${x.set}_${nav(x)}`;
  return `Relation_${ab}_${ba}`;
}

/** The `$metadata` document for `sets` (custom properties included, written like any other). */
export function writeMetadata(sets: readonly PdEntitySet[]): string {
  const byName = new Map(sets.map((s) => [s.name, s]));
  const all = associations(sets);
  const schemaNs = `xmlns:d="${DATA}" xmlns:m="${METADATA}" xmlns="${EDM}"`;
  const types = sets.map((s) => entityType(s, byName)).join('');
  const assocs = all.map((a) =>
    `<Association Name="${xmlAttr(a.name)}">${a.ends.map((e) =>
      `<End Type="${NAMESPACE}.${xmlAttr(e.type)}" Role="${xmlAttr(e.role)}" Multiplicity="${e.multiplicity}" />`).join('')}</Association>`).join('');
  const entitySets = sets.map((s) => `<EntitySet Name="${xmlAttr(s.name)}" EntityType="${NAMESPACE}.${xmlAttr(s.entityType)}" />`).join('');
  const assocSets = all.map((a) =>
    `<AssociationSet Name="${xmlAttr(associationSetName(a))}" Association="${NAMESPACE}.${xmlAttr(a.name)}">${a.ends.map((e) =>
      `<End Role="${xmlAttr(e.role)}" EntitySet="${xmlAttr(e.set)}" />`).join('')}</AssociationSet>`).join('');
  return '<?xml version="1.0" encoding="utf-8"?>'
    + `<edmx:Edmx Version="1.0" xmlns:edmx="${EDMX}">`
    + `<edmx:DataServices m:DataServiceVersion="3.0" m:MaxDataServiceVersion="3.0" xmlns:m="${METADATA}">`
    + `<Schema Namespace="${NAMESPACE}" ${schemaNs}>${types}${assocs}</Schema>`
    + `<Schema Namespace="${CONTAINER_NAMESPACE}" ${schemaNs}>`
    + `<EntityContainer Name="${NAMESPACE}" m:IsDefaultEntityContainer="true">${entitySets}${assocSets}</EntityContainer>`
    + '</Schema></edmx:DataServices></edmx:Edmx>';
}
