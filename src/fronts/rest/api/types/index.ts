// The registry of resource types: every kind of resource the API can address.

import type { ResourceTypes } from '../resource.ts';
import { siteType, webType } from './web.ts';
import { listsType, listType } from './lists.ts';
import { fieldsType, fieldType } from './fields.ts';
import { webFieldsType, webFieldType } from './web-fields.ts';
import { itemFieldValuesType, itemsType, itemType } from './items.ts';
import { peopleManagerType } from './profiles.ts';
import { contextInfoType } from './contextinfo.ts';
import { siteGroupsType, siteGroupType, siteUsersType, siteUserType } from './principals.ts';
import { itemVersionsType, itemVersionType } from './versions.ts';
import { basePermissionsType, roleAssignmentsType, roleAssignmentType, roleDefinitionsType, roleDefinitionType } from './security.ts';
import { fileContentType, filesType, fileStubType, fileType, fileVersionContentType, fileVersionsType, fileVersionType } from './files.ts';
import { foldersType, folderType, webFoldersType, webFolderType } from './folders.ts';
import { moveCopyUtilType } from './move-copy.ts';
import { missingFolderFilesType, missingFolderType } from './missing-folder.ts';
import { attachmentContentType, attachmentsType, attachmentType } from './attachments.ts';
import { propertyValuesType, regionalSettingsType, timeZonesType, timeZoneType } from './web-extras.ts';
import { webInfosType, websType } from './webs.ts';
import { viewFieldsType, viewsType, viewType } from './views.ts';
import { contentTypesType, contentTypeType } from './content-types.ts';
import { navigationNodesType, navigationNodeType, navigationServiceType, navigationType } from './navigation.ts';
import { featuresType } from './features.ts';
import { eventReceiversType } from './event-receivers.ts';
import { formsType, formType } from './list-forms.ts';
import { siteStaticsType, webStaticsType } from './statics.ts';
import { relatedItemManagerType } from './related-items.ts';
import { userResourceType } from './user-resources.ts';
import { customActionsType, customActionType } from './custom-actions.ts';
import { subscriptionsType, subscriptionType } from './subscriptions.ts';
import { hubSitesType, hubSiteType, siteIconManagerType } from './hub-sites.ts';
import { siteScriptUtilityType } from './site-scripts.ts';
import { formsFileContentType, formsFilesType, formsFileType, formsFolderType } from './forms-folder.ts';
import { commentLikesType, commentRepliesType, commentsType, commentType, itemLikedByInformationType, itemLikesType } from './comments.ts';
import { reputationType } from './reputation.ts';
import { webPartDefinitionsType, webPartManagerType } from './web-parts.ts';
import { itemCommentsSettingType, sitePagesPagesType, sitePagesType, sitePageType } from './site-pages.ts';

export const RESOURCE_TYPES: ResourceTypes = {
  site: siteType,
  web: webType,
  lists: listsType,
  list: listType,
  fields: fieldsType,
  field: fieldType,
  webFields: webFieldsType,
  webField: webFieldType,
  items: itemsType,
  item: itemType,
  itemFieldValues: itemFieldValuesType,
  peopleManager: peopleManagerType,
  contextInfo: contextInfoType,
  siteUsers: siteUsersType,
  siteUser: siteUserType,
  siteGroups: siteGroupsType,
  siteGroup: siteGroupType,
  itemVersions: itemVersionsType,
  itemVersion: itemVersionType,
  basePermissions: basePermissionsType,
  roleAssignments: roleAssignmentsType,
  roleAssignment: roleAssignmentType,
  roleDefinitions: roleDefinitionsType,
  roleDefinition: roleDefinitionType,
  webs: websType,
  webInfos: webInfosType,
  views: viewsType,
  contentTypes: contentTypesType,
  navigation: navigationType,
  features: featuresType,
  eventReceivers: eventReceiversType,
  forms: formsType,
  form: formType,
  webStatics: webStaticsType,
  userResource: userResourceType,
  siteStatics: siteStaticsType,
  relatedItemManager: relatedItemManagerType,
  customActions: customActionsType,
  customAction: customActionType,
  navigationNodes: navigationNodesType,
  navigationNode: navigationNodeType,
  navigationService: navigationServiceType,
  contentType: contentTypeType,
  view: viewType,
  viewFields: viewFieldsType,
  propertyValues: propertyValuesType,
  regionalSettings: regionalSettingsType,
  timeZone: timeZoneType,
  timeZones: timeZonesType,
  folder: folderType,
  missingFolder: missingFolderType,
  missingFolderFiles: missingFolderFilesType,
  files: filesType,
  folders: foldersType,
  file: fileType,
  fileContent: fileContentType,
  webPartManager: webPartManagerType,
  webPartDefinitions: webPartDefinitionsType,
  fileStub: fileStubType,
  fileVersions: fileVersionsType,
  fileVersion: fileVersionType,
  fileVersionContent: fileVersionContentType,
  webFolder: webFolderType,
  webFolders: webFoldersType,
  moveCopyUtil: moveCopyUtilType,
  siteScriptUtility: siteScriptUtilityType,
  subscriptions: subscriptionsType,
  subscription: subscriptionType,
  attachments: attachmentsType,
  attachment: attachmentType,
  attachmentContent: attachmentContentType,
  hubSites: hubSitesType,
  hubSite: hubSiteType,
  siteIconManager: siteIconManagerType,
  formsFolder: formsFolderType,
  formsFiles: formsFilesType,
  formsFile: formsFileType,
  formsFileContent: formsFileContentType,
  comments: commentsType,
  comment: commentType,
  commentReplies: commentRepliesType,
  commentLikes: commentLikesType,
  itemLikes: itemLikesType,
  reputation: reputationType,
  sitePages: sitePagesType,
  sitePagesPages: sitePagesPagesType,
  sitePage: sitePageType,
  itemLikedByInformation: itemLikedByInformationType,
  itemCommentsSetting: itemCommentsSettingType,
  readOnly: { get: (r, ctx) => r.read(ctx) },
};
