// A list's event receivers. spemu calls no remote event receivers (adding one is refused), but it
// runs one of SharePoint's own: the LocationBasedMetadataDefaultsReceiver, which gives a new file
// in a library its folder's column defaults (services/forms-files.ts). A library whose defaults
// file is there lists it (ItemAdded, as SharePoint registers it), and adding it — what PnPjs's
// setDefaultColumnValues does after writing the file — answers that receiver, changing nothing.
// POST to the collection is 501 whatever its body (never read: it could not change the answer).
// `add` reads its body before it runs, as every method does: the body is what says whether the
// receiver is SharePoint's own one, so a body that is no JSON is SharePoint's 400, and only a
// readable one naming another receiver (or any, on a list that is no library) is 501.

import { LOCATION_DEFAULTS_FILE } from '../../../../domain/location-defaults.ts';
import type { List } from '../../../../domain/model.ts';
import { hasFormsFolder } from '../../../../services/forms-files.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import { readMethodBody } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { nameBasedGuid } from '../name-based-guid.ts';
import { listEditLink } from '../entities.ts';
import type { ResourceType } from '../resource.ts';
import { entityCollection, singleEntity } from './shared.ts';

const DEFAULTS_RECEIVER_CLASS = 'Microsoft.Office.DocumentManagement.LocationBasedMetadataDefaultsReceiver';
/** SPEventReceiverType.ItemAdded. */
const ITEM_ADDED = 10001;

/** A stable ReceiverId for the list's defaults receiver: a name-based GUID of the list's id. */
function receiverId(list: List): string {
  return nameBasedGuid(`${list.id}/LocationBasedMetadataDefaultsReceiver`);
}

function defaultsReceiver(list: List, ctx: ApiContext): Entity {
  const id = receiverId(list);
  const link = `${listEditLink(list)}/EventReceivers(guid'${id}')`;
  return {
    type: 'SP.EventReceiverDefinition', id: `${ctx.apiUrl}${link}`, editLink: link,
    props: [
      ['EventType', ITEM_ADDED],
      ['ReceiverAssembly', 'Microsoft.Office.DocumentManagement, Version=16.0.0.0, Culture=neutral, PublicKeyToken=71e9bce111e9429c'],
      ['ReceiverClass', DEFAULTS_RECEIVER_CLASS], ['ReceiverId', id], ['ReceiverName', 'LocationBasedMetadataDefaultsReceiver ItemAdded'],
      ['ReceiverUrl', null], ['SequenceNumber', 1000], ['Synchronization', 1],
    ] as Array<[string, Value]>,
  };
}

async function hasDefaults(list: List, ctx: ApiContext): Promise<boolean> {
  if (!hasFormsFolder(list)) return false;
  return (await ctx.store.formsFiles.of(list)).some((f) => f.name.toLowerCase() === LOCATION_DEFAULTS_FILE.toLowerCase());
}

/** The receiver a creation body names is SharePoint's defaults receiver, on an ItemAdded event (or none named). */
function namesDefaultsReceiver(ctx: ApiContext): boolean {
  const info = readMethodBody(ctx).eventReceiverCreationInformation ?? readMethodBody(ctx).parameters;
  if (!info || typeof info !== 'object' || Array.isArray(info)) return false;
  const { ReceiverClass, EventType } = info as { ReceiverClass?: unknown; EventType?: unknown };
  return ReceiverClass === DEFAULTS_RECEIVER_CLASS && (EventType === undefined || Number(EventType) === ITEM_ADDED);
}

export const eventReceiversType: ResourceType<{ kind: 'eventReceivers'; list: List }> = {
  permissions: { create: 'ManageLists' },
  bodies: { create: 'none' },
  get: async (r, ctx) => entityCollection(await hasDefaults(r.list, ctx) ? [defaultsReceiver(r.list, ctx)] : [], 'SP.ApiData.EventReceiverDefinitions', ctx),
  create: async () => { throw errors.notImplemented('Remote event receivers'); },
  methods: {
    add: {
      kind: 'action', permission: 'ManageLists', body: 'json',
      async invoke(r, _args, ctx) {
        if (!hasFormsFolder(r.list) || !namesDefaultsReceiver(ctx)) throw errors.notImplemented('Remote event receivers');
        return singleEntity(defaultsReceiver(r.list, ctx), 'SP.EventReceiverDefinition', ctx);
      },
    },
  },
};
