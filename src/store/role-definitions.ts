// Permission levels a site collection defines (the built-in ones are constants: domain/permissions.ts).

import type { RoleDefinition } from '../domain/permissions.ts';

export type RoleDefinitionPatch = Partial<Pick<RoleDefinition, 'name' | 'description' | 'order' | 'permissions'>>;

export interface RoleDefinitionRepository {
  of(siteId: string): Promise<RoleDefinition[]>;
  /** False if the site has a definition of that name (any case). */
  add(siteId: string, definition: RoleDefinition): Promise<boolean>;
  update(siteId: string, id: number, patch: RoleDefinitionPatch): Promise<RoleDefinition | 'nameTaken' | undefined>;
  delete(siteId: string, id: number): Promise<boolean>;
}
