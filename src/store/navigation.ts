// A web's navigation nodes.

import type { NavigationMenu, NavigationNode } from '../domain/navigation.ts';

export interface NewNavigationNode {
  title: string;
  url: string;
  visible: boolean;
  external: boolean;
}

export interface NavigationRepository {
  /** The nodes of a menu under `parentId` (null: the top level), in order. */
  children(webId: string, menu: NavigationMenu, parentId: number | null): Promise<NavigationNode[]>;
  /** Every node of a web's menu, parents before children, each level in order. */
  all(webId: string, menu: NavigationMenu): Promise<NavigationNode[]>;
  byId(webId: string, id: number): Promise<NavigationNode | undefined>;
  /** Adds a node last under `parentId`. */
  add(webId: string, menu: NavigationMenu, parentId: number | null, node: NewNavigationNode): Promise<NavigationNode>;
  update(webId: string, id: number, patch: Partial<NewNavigationNode>): Promise<NavigationNode | undefined>;
  /** Removes a node and everything below it; false if there was none. */
  delete(webId: string, id: number): Promise<boolean>;
  /** Puts `id` right after `afterId` among its siblings (0 or a node of no sibling: first). */
  moveAfter(webId: string, id: number, afterId: number): Promise<boolean>;
  /** Every node of a web (it is deleted). */
  dropWeb(webId: string): Promise<void>;
}
