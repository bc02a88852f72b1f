// Running site script actions against a web (ApplySiteDesign, AddSiteDesignTask,
// ExecuteSiteScriptAction): each action through the service that owns what it changes, so it
// obeys the same rules as a REST call would. Actions run one after another and each is its own
// write: a failed action is reported as failed (its outcome text the reason) and the next one
// runs, as SharePoint reports a site script's outcomes action by action. The subset spemu runs
// is stated in docs/compatibility.md; any other verb is reported as not supported, never as done.

import { DomainError, fail } from '../domain/errors.ts';
import { findFieldByNameOrTitle } from '../domain/fields.ts';
import { kindFromTypeName } from '../domain/field-kinds.ts';
import type { List, NewField, Principal, Site, Web } from '../domain/model.ts';
import { grants } from '../domain/permissions.ts';
import { effectivePermissions } from '../identity/effective-permissions.ts';
import { canReachSite } from '../identity/site-reach.ts';
import { internalNameFromTitle } from '../domain/names.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';
import { FieldService } from './fields.ts';
import { HubSiteService } from './hub-sites.ts';
import { ListService } from './lists.ts';
import { NavigationService } from './navigation.ts';
import { ViewService } from './views.ts';
import { WebService } from './webs.ts';

export const OUTCOME = { Success: 0, Failure: 1 } as const;

export interface ActionResult {
  title: string;
  outcome: number;
  outcomeText: string | null;
}

type Action = Record<string, unknown>;

/**
 * Reads a column's SchemaXml (addSPFieldXml) into a field definition, as the REST front reads
 * createfieldasxml's (a wire format: the front hands its reader in); a lookup's list is
 * `lookupListId`. Refuses with a DomainError.
 */
export type FieldXmlReader = (xml: string, lookupListId?: string) => NewField;

/** Templates createSPList makes: a list (100) and a document library (101), as the schema documents. */
const LIST_TEMPLATES: ReadonlySet<number> = new Set([100, 101]);
/** addSPField's fieldType values spemu makes (the schema's: Text, Note, Number, Boolean, User, DateTime; and Choice, Currency, URL). */
const FIELD_TYPES: ReadonlySet<string> = new Set(['text', 'note', 'number', 'boolean', 'user', 'datetime', 'choice', 'currency', 'url']);

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const ok = (title: string): ActionResult => ({ title, outcome: OUTCOME.Success, outcomeText: null });
const failed = (title: string, text: string): ActionResult => ({ title, outcome: OUTCOME.Failure, outcomeText: text });
const notSupported = (title: string, verb: string): ActionResult => failed(title, `The action '${verb}' is not supported by spemu.`);

/** The reason an action failed, as a client may read it (a rule's message; anything else is not a client's business). */
function reason(e: unknown): string {
  if (e instanceof DomainError) return e.message;
  throw e;
}

export class SiteScriptActionRunner {
  constructor(
    private readonly store: Store, private readonly actor: Actor, private readonly site: Site, private readonly web: Web,
    /** Who runs the actions: joinHubSite, which changes the whole site collection, checks its rights itself. */
    private readonly caller: Principal, private readonly fieldXml?: FieldXmlReader,
  ) {}

  /** Runs one action (and a list's subactions): one result per action and subaction, in order. */
  async run(action: Action): Promise<ActionResult[]> {
    const verb = str(action.verb) ?? '';
    switch (verb) {
      case 'createSPList': return this.createList(action);
      case 'addNavLink': return [await this.attempt(`Add ${str(action.displayName) ?? ''} to left nav`, () => this.addNavLink(action))];
      case 'removeNavLink': return [await this.attempt(`Remove ${str(action.displayName) ?? ''} from left nav`, () => this.removeNavLink(action))];
      case 'setSiteLogo': return [await this.attempt('Set site logo', () => this.setSiteLogo(action))];
      case 'joinHubSite': return [await this.attempt('Add to Hub Site', () => this.joinHubSite(action))];
      default: return [notSupported(`Run action ${verb}`, verb)];
    }
  }

  private async attempt(title: string, work: () => Promise<void>): Promise<ActionResult> {
    try {
      await work();
      return ok(title);
    } catch (e) {
      return failed(title, reason(e));
    }
  }

  private async createList(action: Action): Promise<ActionResult[]> {
    const name = str(action.listName) ?? '';
    const results: ActionResult[] = [];
    let list: List | undefined;
    results.push(await this.attempt(`Create or update list ${name}`, async () => {
      if (!name.trim()) throw fail.badArgument('createSPList needs a listName.');
      list = await this.store.lists.byTitle(this.web.id, name);
      if (list) return;
      const template = action.templateType ?? 100;
      if (typeof template !== 'number' || !LIST_TEMPLATES.has(template)) throw fail.badArgument(`The list template ${String(template)} is not supported by spemu's site scripts.`);
      list = await new ListService(this.store, this.actor).create(this.web, { title: name, description: '', baseTemplate: template });
    }));
    const subactions = Array.isArray(action.subactions) ? action.subactions as Action[] : [];
    for (const sub of subactions) {
      const verb = str(sub.verb) ?? '';
      const title = subactionTitle(sub);
      // A list that could not be made takes none of its subactions.
      if (!list) results.push(failed(title, `The list '${name}' was not created.`));
      else results.push(await this.subaction(list, sub, verb, title));
      if (list) list = await this.store.lists.byId(this.web.id, list.id) ?? list;
    }
    return results;
  }

  private async subaction(list: List, sub: Action, verb: string, title: string): Promise<ActionResult> {
    switch (verb) {
      case 'setTitle': return this.attempt(title, async () => {
        const value = str(sub.title);
        if (!value?.trim()) throw fail.badArgument('setTitle needs a title.');
        await new ListService(this.store, this.actor).update(list, { title: value }, {});
      });
      case 'setDescription': return this.attempt(title, async () => {
        await new ListService(this.store, this.actor).update(list, { description: str(sub.description) ?? '' }, {});
      });
      case 'addSPField': return this.attempt(title, () => this.addField(list, sub));
      case 'deleteSPField': return this.attempt(title, async () => {
        const field = findFieldByNameOrTitle(await this.store.fields.of(list), str(sub.displayName) ?? '');
        // Nothing to delete is no failure: a script runs again and again.
        if (field) await new FieldService(this.store).delete(list, field);
      });
      case 'addSPFieldXml':
      case 'addSPLookupFieldXml':
        if (!this.fieldXml) return notSupported(title, verb);
        return this.attempt(title, () => this.addFieldXml(list, sub, verb === 'addSPLookupFieldXml'));
      case 'addSPView': return this.attempt(title, () => this.addView(list, sub));
      case 'removeSPView': return this.attempt(title, async () => {
        const view = (await this.store.views.of(list)).find((v) => v.title.toLowerCase() === (str(sub.name) ?? '').toLowerCase());
        if (view) await new ViewService(this.store).delete(list, view);
      });
      default: return notSupported(title, verb);
    }
  }

  /** addSPField: a column of a type spemu makes; one there already (by internal name or title) is left as it is. */
  private async addField(list: List, sub: Action): Promise<void> {
    const displayName = str(sub.displayName) ?? '';
    if (!displayName.trim()) throw fail.badArgument('addSPField needs a displayName.');
    const type = str(sub.fieldType) ?? '';
    const kind = FIELD_TYPES.has(type.toLowerCase()) ? kindFromTypeName(type) : undefined;
    if (!kind) throw fail.badArgument(`The field type '${type}' is not supported by spemu's site scripts.`);
    const internalName = internalNameFromTitle(str(sub.internalName) ?? displayName);
    const fields = await this.store.fields.of(list);
    if (findFieldByNameOrTitle(fields, internalName) || findFieldByNameOrTitle(fields, displayName)) return;
    const options = sub.enforceUnique === true ? { enforceUniqueValues: true } : {};
    const field = await new FieldService(this.store).add(list, {
      internalName, title: displayName, kind, required: sub.isRequired === true, indexed: sub.enforceUnique === true, hidden: false, options,
    });
    if (sub.addToDefaultView === true) await this.showInDefaultView(list, field.internalName);
  }

  /** addSPFieldXml / addSPLookupFieldXml: the column its SchemaXml defines (a lookup into `targetListName` or `targetListUrl` of the web); one there already is left. */
  private async addFieldXml(list: List, sub: Action, lookup: boolean): Promise<void> {
    const xml = str(sub.schemaXml);
    if (!xml) throw fail.badArgument(`${String(sub.verb)} needs a schemaXml.`);
    let target: List | undefined;
    if (lookup) {
      const name = str(sub.targetListName);
      const url = str(sub.targetListUrl);
      const base = this.web.serverRelativeUrl === '/' ? '' : this.web.serverRelativeUrl;
      target = name !== undefined ? await this.store.lists.byTitle(this.web.id, name)
        : url !== undefined ? await this.store.lists.byUrl(this.web.id, `${base}/${url.replace(/^\/+/, '')}`) : undefined;
      if (!target) throw fail.badArgument(`The lookup list '${name ?? url ?? ''}' was not found in the web.`);
    }
    const definition = this.fieldXml!(xml, target?.id);
    const fields = await this.store.fields.of(list);
    if (findFieldByNameOrTitle(fields, definition.internalName)) return;
    const field = await new FieldService(this.store).add(list, definition);
    if (sub.addToDefaultView === true) await this.showInDefaultView(list, field.internalName);
  }

  private async showInDefaultView(list: List, name: string): Promise<void> {
    const view = (await this.store.views.of(list)).find((v) => v.defaultView);
    if (view && !view.fields.includes(name)) await new ViewService(this.store).addField(list, view, name);
  }

  private async addView(list: List, sub: Action): Promise<void> {
    const name = str(sub.name) ?? '';
    if ((await this.store.views.of(list)).some((v) => v.title.toLowerCase() === name.toLowerCase())) return;
    const fields = Array.isArray(sub.viewFields) ? sub.viewFields.map(String) : undefined;
    const scope = str(sub.scope);
    await new ViewService(this.store).create(list, {
      title: name, fields, query: str(sub.query) ?? '', rowLimit: typeof sub.rowLimit === 'number' ? sub.rowLimit : undefined,
      paged: typeof sub.isPaged === 'boolean' ? sub.isPaged : undefined, defaultView: sub.makeDefault === true,
      scope: scope === undefined ? undefined : ({ default: 0, recursive: 1, recursiveall: 2, filesonly: 3 } as Record<string, number>)[scope.toLowerCase()] ?? -1,
    });
  }

  /** The URL a nav action names: below the web when `isWebRelative`, as sent otherwise. */
  private navUrl(action: Action): string {
    const url = str(action.url) ?? '';
    if (action.isWebRelative !== true) return url;
    const base = this.web.serverRelativeUrl === '/' ? '' : this.web.serverRelativeUrl;
    return `${base}/${url.replace(/^\/+/, '')}`;
  }

  /** addNavLink to the quick launch (the default navComponent); the hub and footer navigation spemu does not keep. */
  private async addNavLink(action: Action): Promise<void> {
    const component = str(action.navComponent) ?? 'QuickLaunch';
    if (component.toLowerCase() !== 'quicklaunch') throw fail.badArgument(`The navigation '${component}' is not supported by spemu's site scripts.`);
    if (action.parentDisplayName !== undefined) throw fail.badArgument('addNavLink under a parent link is not supported by spemu\'s site scripts.');
    const title = str(action.displayName) ?? '';
    const url = this.navUrl(action);
    // A link there already (same title and URL) is left as it is: a design applied again adds no second one.
    const nodes = await this.store.navigation.all(this.web.id, 'quicklaunch');
    if (nodes.some((n) => n.parentId === null && n.title.toLowerCase() === title.toLowerCase() && n.url.toLowerCase() === url.toLowerCase())) return;
    await new NavigationService(this.store).add(this.web, 'quicklaunch', null, { title, url });
  }

  private async removeNavLink(action: Action): Promise<void> {
    const title = (str(action.displayName) ?? '').toLowerCase();
    const url = this.navUrl(action).toLowerCase();
    const node = (await this.store.navigation.all(this.web.id, 'quicklaunch'))
      .find((n) => n.title.toLowerCase() === title && (url === '' || n.url.toLowerCase() === url));
    if (node) await new NavigationService(this.store).delete(this.web, node);
  }

  private async setSiteLogo(action: Action): Promise<void> {
    const url = str(action.url);
    if (url === undefined) throw fail.badArgument('setSiteLogo needs a url.');
    await new WebService(this.store, this.actor).update(this.web, { siteLogoUrl: url });
  }

  private async joinHubSite(action: Action): Promise<void> {
    const id = (str(action.hubSiteId) ?? '').trim().replace(/^\{(.*)\}$/, '$1').toLowerCase();
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) throw fail.badArgument('joinHubSite needs a hubSiteId (a GUID).');
    // The design may run on a subweb its caller manages; joining is the site collection's owners'
    // business (as REST's JoinHubSite), and a hub the caller cannot reach is not found.
    const root = this.web.id === this.site.rootWebId ? this.web : await this.store.sites.web(this.site.rootWebId);
    if (!root || !grants(await effectivePermissions(this.store, this.site, this.caller, { kind: 'web', web: root }), 'ManageWeb')) throw fail.accessDenied();
    if (id !== '00000000-0000-0000-0000-000000000000' && !(await canReachSite(this.store, this.caller, this.site.id, id))) throw fail.hubSiteNotFound();
    await new HubSiteService(this.store, this.actor).join(this.site, id);
  }
}

/** A subaction's title, in SharePoint's words where its examples show them (Invoke-SPOSiteDesign), spemu's otherwise. */
function subactionTitle(sub: Action): string {
  switch (str(sub.verb)) {
    case 'setTitle': return `Update list title to ${str(sub.title) ?? ''}`;
    case 'setDescription': return 'Update list description';
    case 'addSPField': return `Create column ${str(sub.displayName) ?? ''}`;
    case 'addSPFieldXml':
    case 'addSPLookupFieldXml': return `Create column ${/\bDisplayName="([^"]*)"/.exec(str(sub.schemaXml) ?? '')?.[1] ?? ''}`;
    case 'deleteSPField': return `Delete column ${str(sub.displayName) ?? ''}`;
    case 'addSPView': return `Create view ${str(sub.name) ?? ''}`;
    case 'removeSPView': return `Remove view ${str(sub.name) ?? ''}`;
    default: return `Run action ${str(sub.verb) ?? ''}`;
  }
}
