// User custom actions: SP.UserCustomAction's settable properties, each checked for its type,
// kept as sent; a new one gets an id. spemu records them (provisioning code and SPFx
// extension registration read them back); it runs none of them.

import { randomUUID } from 'node:crypto';
import { fail } from '../domain/errors.ts';
import type { CustomActionHolder, StoredCustomAction } from '../store/custom-actions.ts';
import type { Store } from '../store/store.ts';

type Kind = 'string' | 'integer' | 'guid' | 'permissions';

/** The properties a client sets, with what each must be. */
export const CUSTOM_ACTION_PROPERTIES: Record<string, Kind> = {
  ClientSideComponentId: 'guid', ClientSideComponentProperties: 'string', CommandUIExtension: 'string', Description: 'string',
  Group: 'string', HostProperties: 'string', ImageUrl: 'string', Location: 'string', Name: 'string', RegistrationId: 'string',
  RegistrationType: 'integer', Rights: 'permissions', ScriptBlock: 'string', ScriptSrc: 'string', Sequence: 'integer', Title: 'string', Url: 'string',
};

function check(props: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(props)) {
    const kind = CUSTOM_ACTION_PROPERTIES[name];
    if (!kind) throw fail.badArgument(`The property '${name}' does not exist on type 'SP.UserCustomAction'.`);
    if (value === null) { out[name] = null; continue; }
    const ok = kind === 'string' ? typeof value === 'string'
      : kind === 'integer' ? Number.isInteger(value) && (value as number) >= 0 && (name !== 'RegistrationType' || (value as number) <= 4)
      : kind === 'guid' ? typeof value === 'string' && /^\{?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}?$/i.test(value)
      : typeof value === 'object' && !Array.isArray(value);
    if (!ok) throw fail.badArgument(`The value of '${name}' is not a valid ${kind === 'permissions' ? 'SP.BasePermissions' : kind}.`);
    out[name] = kind === 'guid' ? (value as string).replace(/[{}]/g, '').toLowerCase() : value;
  }
  return out;
}

export class CustomActionService {
  constructor(private readonly store: Store) {}

  async add(holder: CustomActionHolder, props: Record<string, unknown>): Promise<StoredCustomAction> {
    const action = { id: randomUUID(), props: check(props) };
    await this.store.customActions.add(holder, action);
    return action;
  }

  async update(holder: CustomActionHolder, id: string, props: Record<string, unknown>): Promise<void> {
    if (!(await this.store.customActions.update(holder, id, check(props)))) throw fail.customActionNotFound();
  }

  async delete(holder: CustomActionHolder, id: string): Promise<void> {
    if (!(await this.store.customActions.delete(holder, id))) throw fail.customActionNotFound();
  }

  clear(holder: CustomActionHolder): Promise<void> {
    return this.store.customActions.clear(holder);
  }
}
