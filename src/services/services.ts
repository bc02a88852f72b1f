// The service layer's one entry for a front: the domain operations, bound to the store and to
// who acts. Fronts read through the store's read side (`StoreReader`) and change things only
// through these, so every rule a write obeys lives here once, whatever protocol asked.
//
// Adding an aggregate's service: its class in a file here and one getter below.

import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';
import { AttachmentService } from './attachments.ts';
import { DIRECT_UPLOAD_LIMIT, DocumentService, type UploadLimits } from './documents.ts';
import { FieldService } from './fields.ts';
import { FormsFileService } from './forms-files.ts';
import { SiteColumnService } from './site-columns.ts';
import { ItemService } from './items.ts';
import { ListService } from './lists.ts';
import { PrincipalService } from './principals.ts';
import { ProfileService } from './profiles.ts';
import { PublishingService } from './publishing.ts';
import { VersionService } from './versions.ts';
import { WebService } from './webs.ts';
import { ViewService } from './views.ts';
import { ContentTypeService } from './content-types.ts';
import { FormUpdateService } from './form-updates.ts';
import { NavigationService } from './navigation.ts';
import { FeatureService } from './features.ts';
import { CustomActionService } from './custom-actions.ts';
import { SiteGroupService } from './site-groups.ts';
import { RoleDefinitionService } from './role-definitions.ts';
import { PermissionService } from './permissions.ts';
import { RelatedItemService } from './related-items.ts';
import { SharingService } from './sharing.ts';
import { HubSiteService } from './hub-sites.ts';
import { SiteScriptService } from './site-scripts.ts';
import { SiteDesignService } from './site-designs.ts';
import { CommentService } from './comments.ts';
import { SitePageService } from './site-pages.ts';
import { RecycleBinService } from './recycle-bin.ts';
import { SubscriptionService } from './webhooks/subscriptions.ts';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from './webhooks/settings.ts';

export type { Actor };

export class Services {
  readonly #store: Store;
  readonly #actor: Actor;
  readonly #limits: UploadLimits;
  readonly #webhooks: WebhookSettings;

  constructor(store: Store, actor: Actor, limits: UploadLimits = { maxFileSize: DIRECT_UPLOAD_LIMIT }, webhooks: WebhookSettings = DEFAULT_WEBHOOK_SETTINGS) {
    this.#store = store;
    this.#actor = actor;
    this.#limits = limits;
    this.#webhooks = webhooks;
  }

  // Each is a small stateless object over the same store and actor, made when asked for.
  get webs(): WebService { return new WebService(this.#store, this.#actor); }
  get lists(): ListService { return new ListService(this.#store, this.#actor); }
  get fields(): FieldService { return new FieldService(this.#store); }
  get views(): ViewService { return new ViewService(this.#store); }
  get contentTypes(): ContentTypeService { return new ContentTypeService(this.#store); }
  get formUpdates(): FormUpdateService { return new FormUpdateService(this.#store, this.#actor); }
  get navigation(): NavigationService { return new NavigationService(this.#store); }
  get features(): FeatureService { return new FeatureService(this.#store); }
  get customActions(): CustomActionService { return new CustomActionService(this.#store); }
  get siteGroups(): SiteGroupService { return new SiteGroupService(this.#store, this.#actor); }
  get roleDefinitions(): RoleDefinitionService { return new RoleDefinitionService(this.#store); }
  get permissions(): PermissionService { return new PermissionService(this.#store, this.#actor); }
  get sharing(): SharingService { return new SharingService(this.#store, this.#actor); }
  get hubSites(): HubSiteService { return new HubSiteService(this.#store, this.#actor); }
  get siteColumns(): SiteColumnService { return new SiteColumnService(this.#store); }
  get items(): ItemService { return new ItemService(this.#store, this.#actor); }
  get versions(): VersionService { return new VersionService(this.#store); }
  get principals(): PrincipalService { return new PrincipalService(this.#store, this.#actor); }
  get profiles(): ProfileService { return new ProfileService(this.#store, this.#actor); }
  get formsFiles(): FormsFileService { return new FormsFileService(this.#store, this.#actor); }
  get documents(): DocumentService { return new DocumentService(this.#store, this.#actor, this.#limits); }
  get publishing(): PublishingService { return new PublishingService(this.#store, this.#actor); }
  get subscriptions(): SubscriptionService { return new SubscriptionService(this.#store, this.#actor, this.#webhooks); }
  get relatedItems(): RelatedItemService { return new RelatedItemService(this.#store, this.#actor); }
  get attachments(): AttachmentService { return new AttachmentService(this.#store, this.#actor, this.#limits); }
  get siteScripts(): SiteScriptService { return new SiteScriptService(this.#store, this.#actor); }
  get siteDesigns(): SiteDesignService { return new SiteDesignService(this.#store, this.#actor); }
  get comments(): CommentService { return new CommentService(this.#store, this.#actor); }
  get sitePages(): SitePageService { return new SitePageService(this.#store, this.#actor); }
  get recycleBin(): RecycleBinService { return new RecycleBinService(this.#store, this.#actor); }
}
