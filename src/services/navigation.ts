// A web's navigation nodes: their rules (a title, a URL) and their life. A new web's quick
// launch is seeded here, for every way a web comes to be (a site, a subweb, a tenant file).

import { fail } from '../domain/errors.ts';
import type { Web } from '../domain/model.ts';
import { defaultQuickLaunch, isExternalUrl, type NavigationMenu, type NavigationNode } from '../domain/navigation.ts';
import type { NavigationRepository } from '../store/navigation.ts';
import type { Store } from '../store/store.ts';

export interface NodeInput {
  title?: string | undefined;
  url?: string | undefined;
  visible?: boolean | undefined;
}

/** Gives a new web the quick launch a new team site has. */
export async function seedQuickLaunch(navigation: NavigationRepository, web: Web): Promise<void> {
  for (const node of defaultQuickLaunch(web.serverRelativeUrl)) {
    await navigation.add(web.id, 'quicklaunch', null, { ...node, visible: true, external: false });
  }
}

export class NavigationService {
  constructor(private readonly store: Store) {}

  async add(web: Web, menu: NavigationMenu, parentId: number | null, input: NodeInput): Promise<NavigationNode> {
    const title = (input.title ?? '').trim();
    if (!title) throw fail.badArgument('A navigation node needs a Title.');
    if (input.url === undefined) throw fail.badArgument('A navigation node needs a Url.');
    if (parentId !== null && !(await this.store.navigation.byId(web.id, parentId))) throw fail.navigationNodeNotFound();
    return this.store.navigation.add(web.id, menu, parentId, { title, url: input.url, visible: input.visible ?? true, external: isExternalUrl(input.url) });
  }

  async update(web: Web, node: NavigationNode, input: NodeInput): Promise<NavigationNode> {
    if (input.title !== undefined && !input.title.trim()) throw fail.badArgument('A navigation node needs a Title.');
    const updated = await this.store.navigation.update(web.id, node.id, {
      ...(input.title !== undefined ? { title: input.title.trim() } : {}),
      ...(input.url !== undefined ? { url: input.url, external: isExternalUrl(input.url) } : {}),
      ...(input.visible !== undefined ? { visible: input.visible } : {}),
    });
    if (!updated) throw fail.navigationNodeNotFound();
    return updated;
  }

  async delete(web: Web, node: NavigationNode): Promise<void> {
    if (!(await this.store.navigation.delete(web.id, node.id))) throw fail.navigationNodeNotFound();
  }

  async moveAfter(web: Web, nodeId: number, afterId: number): Promise<void> {
    if (!(await this.store.navigation.moveAfter(web.id, nodeId, afterId))) throw fail.navigationNodeNotFound();
  }
}
