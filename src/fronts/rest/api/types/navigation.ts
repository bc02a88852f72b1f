// SP.Navigation and SP.NavigationNode: `web/navigation/quicklaunch` and `topnavigationbar`
// (GET, POST a node, `MoveAfter`), `navigation/getNodeById(n)`, a node's GET / MERGE / DELETE
// and `children`; and the navigation service at `_api/navigation` (`MenuState`,
// `MenuNodeKey`), which answers from the quick launch.

import type { Web } from '../../../../domain/model.ts';
import type { NavigationMenu, NavigationNode } from '../../../../domain/navigation.ts';
import { urlPrefix } from '../../../../domain/names.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import { boolProp, readEntityBody, readMethodBody, stringProp, type Properties } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { noContent, ok, type Outcome } from '../outcome.ts';
import type { ResourceType } from '../resource.ts';
import { voidAction } from './documents-shared.ts';
import { emptyOk, entityCollection, integerArgument, singleEntity } from './shared.ts';

type NavigationResource = { kind: 'navigation'; web: Web };
type NodesResource = { kind: 'navigationNodes'; web: Web; menu: NavigationMenu; parentId: number | null };
type NodeResource = { kind: 'navigationNode'; web: Web; node: NavigationNode };

const nodeLink = (node: NavigationNode) => `Web/Navigation/GetNodeById(${node.id})`;

function nodeEntity(node: NavigationNode, ctx: ApiContext): Entity {
  return {
    type: 'SP.NavigationNode', id: `${ctx.apiUrl}${nodeLink(node)}`, editLink: nodeLink(node), deferred: ['Children'],
    props: [
      ['AudienceIds', null], ['CurrentLCID', 1033], ['Id', node.id], ['IsDocLib', /\/Forms\/AllItems\.aspx$/i.test(node.url)],
      ['IsExternal', node.external], ['IsVisible', node.visible], ['ListTemplateType', 0], ['Title', node.title], ['Url', node.url],
    ],
  };
}

async function nodeById(web: Web, id: number, ctx: ApiContext): Promise<NodeResource> {
  const node = await ctx.store.navigation.byId(web.id, id);
  if (!node) throw errors.navigationNodeNotFound();
  return { kind: 'navigationNode', web, node };
}

const NODE_PROPS = new Set(['Title', 'Url', 'IsVisible']);

function nodeInput(props: Properties, typeName: string): { title?: string | undefined; url?: string | undefined; visible?: boolean | undefined } {
  for (const key of Object.keys(props)) {
    if (NODE_PROPS.has(key)) continue;
    if (['AudienceIds', 'IsExternal', 'IsDocLib', 'ListTemplateType', 'CurrentLCID', 'Id'].includes(key)) throw errors.notImplemented(`Setting ${typeName}.${key}`);
    throw errors.unknownBodyProperty(key, typeName);
  }
  return { title: stringProp(props, 'Title'), url: stringProp(props, 'Url'), visible: boolProp(props, 'IsVisible') };
}

export const navigationType: ResourceType<NavigationResource> = {
  navigation: {
    quicklaunch: async (r) => ({ kind: 'navigationNodes', web: r.web, menu: 'quicklaunch', parentId: null }),
    topnavigationbar: async (r) => ({ kind: 'navigationNodes', web: r.web, menu: 'topnavigationbar', parentId: null }),
  },
  methods: {
    getnodebyid: { kind: 'function', invoke: (r, args, ctx) => nodeById(r.web, integerArgument(args, 'id'), ctx) },
  },
};

export const navigationNodesType: ResourceType<NodesResource> = {
  permissions: { create: 'ManageWeb' },
  key: async (r, args, ctx) => {
    const found = await nodeById(r.web, integerArgument(args, 'id'), ctx);
    if (found.node.menu !== r.menu || found.node.parentId !== r.parentId) throw errors.navigationNodeNotFound();
    return found;
  },
  methods: {
    getbyid: { kind: 'function', invoke: (r, args, ctx) => nodeById(r.web, integerArgument(args, 'id'), ctx) },
    moveafter: voidAction('MoveAfter', 'ManageWeb', async (r, _args, ctx) => {
      const body = readMethodBody(ctx);
      if (typeof body.nodeId !== 'number' || typeof body.previousNodeId !== 'number') throw errors.badArgument('The body must be {"nodeId":n,"previousNodeId":n}.');
      await ctx.services.navigation.moveAfter(r.web, body.nodeId, body.previousNodeId);
    }, 'json'),
  },
  get: async (r, ctx) => entityCollection((await ctx.store.navigation.children(r.web.id, r.menu, r.parentId)).map((n) => nodeEntity(n, ctx)), 'SP.ApiData.NavigationNodes', ctx),
  async create(r, ctx) {
    const node = await ctx.services.navigation.add(r.web, r.menu, r.parentId, nodeInput(readEntityBody(ctx, 'SP.NavigationNode'), 'SP.NavigationNode'));
    return { ...singleEntity(nodeEntity(node, ctx), 'SP.NavigationNode', ctx), status: 201 };
  },
};

export const navigationNodeType: ResourceType<NodeResource> = {
  permissions: { update: 'ManageWeb', delete: 'ManageWeb' },
  navigation: {
    children: async (r) => ({ kind: 'navigationNodes', web: r.web, menu: r.node.menu, parentId: r.node.id }),
  },
  get: async (r, ctx) => singleEntity(nodeEntity(r.node, ctx), 'SP.NavigationNode', ctx),
  async update(r, ctx) {
    await ctx.services.navigation.update(r.web, r.node, nodeInput(readEntityBody(ctx, 'SP.NavigationNode'), 'SP.NavigationNode'));
    return noContent();
  },
  async delete(r, ctx) {
    await ctx.services.navigation.delete(r.web, r.node);
    return emptyOk();
  },
};

// ---- The navigation service (`_api/navigation`) --------------------------------------------

/** SharePoint's key of the quick launch's root in a menu state. */
const QUICK_LAUNCH_KEY = '1025';

function menuNode(node: NavigationNode, all: NavigationNode[], depth: number): Value {
  const children = depth > 1 ? all.filter((n) => n.parentId === node.id).map((n) => menuNode(n, all, depth - 1)) : [];
  return {
    kind: 'complex', type: 'SP.MenuNode', props: [
      ['CustomProperties', { kind: 'collection', elementType: 'SP.CustomProperty', items: [] }], ['FriendlyUrlSegment', ''],
      ['IsDeleted', false], ['IsHidden', !node.visible], ['IsTitleForExistingLanguage', true], ['Key', String(node.id)],
      ['Nodes', { kind: 'collection', elementType: 'SP.MenuNode', items: children }], ['NodeType', 0], ['OpenInNewWindow', null],
      ['SimpleUrl', node.url], ['Title', node.title], ['Translations', { kind: 'collection', elementType: 'SP.TranslationState', items: [] }],
    ],
  };
}

const normaliseUrl = (url: string) => url.replace(/\/+$/, '').toLowerCase();

export const navigationServiceType: ResourceType<{ kind: 'navigationService' }> = {
  methods: {
    /** The quick launch as a menu: from its root, or (menuNodeKey) from one node, `depth` levels down. */
    menustate: {
      kind: 'action', permission: 'Open', body: 'json',
      async invoke(_r, _args, ctx): Promise<Outcome> {
        const body = readMethodBody(ctx);
        const depth = typeof body.depth === 'number' && body.depth > 0 ? body.depth : 10;
        const all = await ctx.store.navigation.all(ctx.web.id, 'quicklaunch');
        const key = typeof body.menuNodeKey === 'string' && body.menuNodeKey !== '' ? body.menuNodeKey : null;
        const start = key === null ? undefined : all.find((n) => String(n.id) === key);
        if (key !== null && !start) throw errors.navigationNodeNotFound();
        const top = all.filter((n) => n.parentId === (start ? start.id : null));
        const webPrefix = urlPrefix(ctx.web.serverRelativeUrl) || '/';
        return ok({
          kind: 'primitive', methodName: 'MenuState', edmType: 'SP.MenuState', value: {
            kind: 'complex', type: 'SP.MenuState', props: [
              ['FriendlyUrlPrefix', ''], ['Nodes', { kind: 'collection', elementType: 'SP.MenuNode', items: top.map((n) => menuNode(n, all, depth)) }],
              ['SimpleUrl', ''], ['SPSitePrefix', urlPrefix(ctx.site.url) || '/'], ['SPWebPrefix', webPrefix],
              ['StartingNodeKey', start ? String(start.id) : QUICK_LAUNCH_KEY], ['StartingNodeTitle', start ? start.title : 'Quick launch'],
              ['Version', new Date(0).toISOString()],
            ],
          },
        });
      },
    },
    /** The key of the quick launch node whose URL is `currentUrl`. */
    menunodekey: {
      kind: 'action', permission: 'Open', body: 'json',
      async invoke(_r, _args, ctx): Promise<Outcome> {
        const body = readMethodBody(ctx);
        if (typeof body.currentUrl !== 'string') throw errors.badArgument('The body must be {"currentUrl":"…"}.');
        const wanted = normaliseUrl(body.currentUrl);
        const node = (await ctx.store.navigation.all(ctx.web.id, 'quicklaunch')).find((n) => normaliseUrl(n.url) === wanted);
        if (!node) throw errors.navigationNodeNotFound();
        return ok({ kind: 'primitive', methodName: 'MenuNodeKey', edmType: 'Edm.String', value: String(node.id) });
      },
    },
  },
};
