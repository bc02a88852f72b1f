// A fixed-shape entity (SP.Web, SP.List) made with only the properties a plain `$select` names
// (entity-shape.ts `Selection`): `web?$select=Title` makes the title, not 36 properties to drop
// 35 of (issue #13). The answer is the one the general path gives (build all, add the securable
// properties and the change token, project: expand.ts), which serves every other query.

import type { TokenScopeName } from '../../../../domain/change-tokens.ts';
import type { Securable } from '../../../../identity/effective-permissions.ts';
import type { Entity } from '../../../../wire/values.ts';
import type { ApiContext } from '../context.ts';
import type { EntityShape, Selection } from '../entity-shape.ts';
import { currentTokenValue } from './changes.ts';
import { appendSecurableProperties } from './security.ts';

/** An entity's head: what the general path's builder sets besides its properties. */
export interface EntityHead { id: string; editLink: string; etag?: string | undefined }

/** The entity as `$select` has it: the named properties in the shape's order, then the securable ones asked for. */
export async function selectedEntity<S>(
  shape: EntityShape<S>, selection: Selection, source: S, head: EntityHead, ctx: ApiContext,
  securable: Securable, token: { scope: TokenScopeName; id: string },
): Promise<Entity> {
  const props = shape.picked(selection, source);
  if (selection.effectiveBasePermissions || selection.hasUniqueRoleAssignments) {
    await appendSecurableProperties(props, ctx, securable, selection.effectiveBasePermissions, selection.hasUniqueRoleAssignments);
  }
  if (selection.changeToken) {
    const at = props.findIndex(([name]) => name === 'CurrentChangeToken');
    props[at] = ['CurrentChangeToken', await currentTokenValue(ctx, token.scope, token.id)];
  }
  // The keys in the order the general path leaves them (an etag only where the shape has one).
  return head.etag === undefined
    ? { type: shape.type, id: head.id, editLink: head.editLink, deferred: selection.deferred && [...selection.deferred], props }
    : { type: shape.type, id: head.id, editLink: head.editLink, etag: head.etag, deferred: selection.deferred && [...selection.deferred], props };
}
