// `items(n)/ValidateUpdateListItem` and `lists(…)/AddValidateUpdateItemUsingPath`: item writes
// as SharePoint's forms (and the CLI for Microsoft 365) make them, answered field by field
// with SP.ListItemFormUpdateValue results (services/form-updates.ts).

import type { List } from '../../../../domain/model.ts';
import { decodeUrlText, isWithin, segments } from '../../../../domain/documents.ts';
import type { FormResult, FormValueInput } from '../../../../services/form-updates.ts';
import { errors } from '../../../../wire/errors.ts';
import { requireInFolder } from '../authorize-on.ts';
import type { Value } from '../../../../wire/values.ts';
import { arrayValue, readMethodBody, type Properties } from '../body.ts';
import { ok, type Outcome } from '../outcome.ts';
import type { MethodDef } from '../resource.ts';

function formValues(body: Properties): FormValueInput[] {
  const list = arrayValue(body.formValues);
  if (!list) throw errors.badArgument('The body needs formValues: [{"FieldName":"…","FieldValue":"…"}].');
  return list.map((entry) => {
    const e = entry as { FieldName?: unknown; FieldValue?: unknown } | null;
    if (!e || typeof e.FieldName !== 'string' || (e.FieldValue !== null && e.FieldValue !== undefined && typeof e.FieldValue !== 'string')) {
      throw errors.badArgument('Each form value needs a FieldName and a FieldValue (text).');
    }
    return { FieldName: e.FieldName, FieldValue: (e.FieldValue as string | null | undefined) ?? '' };
  });
}

function resultsOutcome(methodName: string, results: FormResult[]): Outcome {
  const items: Value[] = results.map((r) => ({
    kind: 'complex', type: 'SP.ListItemFormUpdateValue',
    props: [['ErrorCode', r.ErrorCode], ['ErrorMessage', r.ErrorMessage], ['FieldName', r.FieldName], ['FieldValue', r.FieldValue], ['HasException', r.HasException], ['ItemId', r.ItemId]],
  }));
  return ok({ kind: 'primitive', methodName, edmType: 'Collection(SP.ListItemFormUpdateValue)', value: { kind: 'collection', elementType: 'SP.ListItemFormUpdateValue', items } });
}

const flag = (v: unknown, name: string): boolean => {
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw errors.badArgument(`${name} must be true or false.`);
  return v;
};

export const validateUpdateListItem: MethodDef<{ kind: 'item'; list: List; id: number }> = {
  kind: 'action', permission: 'EditListItems', body: 'json',
  async invoke(r, _args, ctx) {
    const body = readMethodBody(ctx);
    const results = await ctx.services.formUpdates.update(ctx.site, r.list, r.id, formValues(body), { inPlace: flag(body.bNewDocumentUpdate, 'bNewDocumentUpdate') });
    return resultsOutcome('ValidateUpdateListItem', results);
  },
};

export const addValidateUpdateItemUsingPath: MethodDef<{ kind: 'list'; list: List }> = {
  kind: 'action', permission: 'AddListItems', body: 'json',
  async invoke(r, _args, ctx) {
    const body = readMethodBody(ctx);
    const info = (body.listItemCreateInfo ?? {}) as Properties;
    if (typeof info !== 'object' || Array.isArray(info)) throw errors.badArgument('listItemCreateInfo must be an object.');
    const dir = folderPath(r.list, pathText(info.FolderPath));
    // The method's check was on the list; what is added to a folder needs the folder's permission too.
    if (dir) await requireInFolder(r.list, dir, 'AddListItems', ctx);
    const kind = info.UnderlyingObjectType ?? 0;
    const leaf = pathText(info.LeafName);
    if (kind !== 0 && kind !== 1) throw errors.notImplemented('AddValidateUpdateItemUsingPath of a web');
    if (kind === 1 && !leaf) throw errors.badArgument('A folder needs its LeafName.');
    if (kind === 0 && leaf) throw errors.notImplemented('AddValidateUpdateItemUsingPath of a file (add it with files/AddUsingPath)');
    const results = await ctx.services.formUpdates.add(ctx.site, r.list, formValues(body), { dir, folderName: kind === 1 ? leaf : undefined });
    return resultsOutcome('AddValidateUpdateItemUsingPath', results);
  },
};

/** An SP.ResourcePath (`{DecodedUrl}`) or a string; '' when absent. */
function pathText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  const decoded = (value as { DecodedUrl?: unknown }).DecodedUrl;
  if (typeof decoded !== 'string') throw errors.badArgument('A path must be {"DecodedUrl":"…"}.');
  return decoded;
}

/** The folder inside the list that FolderPath names (absolute, server-relative, or relative to the list); '' for its root. */
function folderPath(list: List, text: string): string {
  if (!text) return '';
  const path = decodeUrlText(/^https?:\/\//i.test(text) ? new URL(text).pathname : text);
  const parts = segments(path).join('/');
  const root = segments(list.serverRelativeUrl).join('/');
  if (!path.startsWith('/')) return parts;
  if (!isWithin(parts, root)) throw errors.badArgument(`The folder ${path} is not in the list.`);
  return parts.slice(root.length).replace(/^\//, '');
}
