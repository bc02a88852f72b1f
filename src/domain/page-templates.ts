// The .aspx pages SharePoint makes from a template (SP.TemplateFileType, `files/addTemplateFile`)
// and the home page every site's Site Pages library starts with. spemu renders no pages: these
// are the files' contents, minimal but real ASP.NET pages of the kind SharePoint stores, so a
// client that reads one back gets a page and not an empty file.

/** SP.TemplateFileType: StandardPage 0, WikiPage 1, FormPage 2, ClientSidePage 3. */
export const TEMPLATE_FILE_TYPES = { standardPage: 0, wikiPage: 1, formPage: 2, clientSidePage: 3 } as const;
export type TemplateFileType = (typeof TEMPLATE_FILE_TYPES)[keyof typeof TEMPLATE_FILE_TYPES];

const ASSEMBLY = 'Microsoft.SharePoint, Version=16.0.0.0, Culture=neutral, PublicKeyToken=71e9bce111e9429c';
const REGISTER_WEB_PARTS = `<%@ Register Tagprefix="WebPartPages" Namespace="Microsoft.SharePoint.WebPartPages" Assembly="${ASSEMBLY}" %>`;

/** A web part page with one zone (StandardPage). */
const STANDARD_PAGE = [
  `<%@ Page Language="C#" MasterPageFile="~masterurl/default.master" Inherits="Microsoft.SharePoint.WebPartPages.WebPartPage, ${ASSEMBLY}" %>`,
  REGISTER_WEB_PARTS,
  '<asp:Content ContentPlaceHolderId="PlaceHolderMain" runat="server">',
  '<WebPartPages:WebPartZone runat="server" FrameType="TitleBarOnly" ID="Main" Title="Main" />',
  '</asp:Content>',
].join('\r\n');

/** A wiki page: its text lives in the item's WikiField, the page only shows it (WikiPage). */
const WIKI_PAGE = [
  `<%@ Page Language="C#" MasterPageFile="~masterurl/default.master" Inherits="Microsoft.SharePoint.WebPartPages.WikiEditPage, ${ASSEMBLY}" %>`,
  `<%@ Register Tagprefix="SharePoint" Namespace="Microsoft.SharePoint.WebControls" Assembly="${ASSEMBLY}" %>`,
  '<asp:Content ContentPlaceHolderId="PlaceHolderMain" runat="server">',
  '<SharePoint:EmbeddedFormField runat="server" FieldName="WikiField" ControlMode="Display" />',
  '</asp:Content>',
].join('\r\n');

/** A list form page: a zone holding the list's form web part (FormPage). */
const FORM_PAGE = [
  `<%@ Page Language="C#" MasterPageFile="~masterurl/default.master" Inherits="Microsoft.SharePoint.WebPartPages.WebPartPage, ${ASSEMBLY}" %>`,
  REGISTER_WEB_PARTS,
  '<asp:Content ContentPlaceHolderId="PlaceHolderMain" runat="server">',
  '<WebPartPages:WebPartZone runat="server" FrameType="None" ID="Main" Title="Main" />',
  '</asp:Content>',
].join('\r\n');

/** A modern page: the .aspx only redirects to the page application, the content is in the item (ClientSidePage). */
const CLIENT_SIDE_PAGE = [
  `<%@ Page Language="C#" Inherits="Microsoft.SharePoint.WebPartPages.ClientSidePage, ${ASSEMBLY}" %>`,
  '<html><head><meta name="WebPartPageExpansion" content="full" /></head><body></body></html>',
].join('\r\n');

const CONTENT: Record<TemplateFileType, string> = {
  0: STANDARD_PAGE, 1: WIKI_PAGE, 2: FORM_PAGE, 3: CLIENT_SIDE_PAGE,
};

export const isTemplateFileType = (n: number): n is TemplateFileType => Number.isInteger(n) && n >= 0 && n <= 3;

/** The content of a new page of that template type. */
export const pageTemplate = (type: TemplateFileType): string => CONTENT[type];

/** Site Pages' first file, as a new SharePoint Online site has it: a modern (client-side) page. */
export const HOME_PAGE = { name: 'Home.aspx', title: 'Home', content: CLIENT_SIDE_PAGE } as const;
