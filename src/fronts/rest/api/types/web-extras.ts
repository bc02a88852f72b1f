// What a web has besides lists and principals: the property bag (AllProperties), regional
// settings with the time zone and installed languages. spemu's sites use UTC and the en-US
// locale. Subwebs are in webs.ts.

import { encodeUnderscores } from '../../../../domain/names.ts';
import type { Web } from '../../../../domain/model.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import type { ApiContext } from '../context.ts';
import { ok } from '../outcome.ts';
import type { ResourceType } from '../resource.ts';
import { LIBRARY_VERSION } from '../../../../wire/headers.ts';
import { TIME_ZONES, timeZoneById, UTC_TIME_ZONE_ID, type TimeZoneInfo } from '../../../../domain/time-zones.ts';
import { webPropertyBag } from '../../../../services/web-properties.ts';
import { entityCollection, integerArgument, singleEntity, stringArgument } from './shared.ts';

type WebResource<K extends string> = { kind: K; web: Web };

// ---- The property bag --------------------------------------------------------------------

/** Keys encode `_` as `_x005f_` on the wire, as FieldValuesAsText does (`vti_x005f_defaultlanguage`). */
const wireKey = encodeUnderscores;

const propertyBag = (web: Web, ctx: ApiContext): Array<[string, string]> => webPropertyBag(ctx.site, web, LIBRARY_VERSION);

export const propertyValuesType: ResourceType<WebResource<'propertyValues'>> = {
  permissions: { update: 'ManageWeb' },
  get: async (r, ctx) => {
    const entity: Entity = {
      type: 'SP.PropertyValues', id: `${ctx.apiUrl}Web/AllProperties`, editLink: 'Web/AllProperties',
      props: propertyBag(r.web, ctx).map(([k, v]) => [wireKey(k), v]),
    };
    return singleEntity(entity, 'SP.PropertyValues', ctx);
  },
  update: async () => { throw errors.notImplemented('SP.PropertyValues.Update'); },
};

// ---- Regional settings -------------------------------------------------------------------

const UTC_ZONE = timeZoneById(UTC_TIME_ZONE_ID)!;

function regionalSettingsEntity(web: Web, ctx: ApiContext): Entity {
  return {
    type: 'SP.RegionalSettings', id: `${ctx.apiUrl}Web/RegionalSettings`, editLink: 'Web/RegionalSettings',
    deferred: ['InstalledLanguages', 'TimeZone', 'TimeZones'],
    props: [
      ['AdjustHijriDays', 0], ['AlternateCalendarType', 0], ['AM', 'AM'], ['CalendarType', 1], ['Collation', 25],
      ['CollationLCID', 2070], ['DateFormat', 0], ['DateSeparator', '/'], ['DecimalSeparator', '.'], ['DigitGrouping', '3;0'],
      ['FirstDayOfWeek', 0], ['FirstWeekOfYear', 0], ['IsEastAsia', false], ['IsRightToLeft', false], ['IsUIRightToLeft', false],
      ['ListSeparator', ','], ['LocaleId', web.language], ['NegativeSign', '-'], ['NegNumberMode', 1], ['PM', 'PM'],
      ['PositiveSign', ''], ['ShowWeeks', false], ['ThousandSeparator', ','], ['Time24', false], ['TimeMarkerPosition', 0],
      ['TimeSeparator', ':'], ['WorkDayEndHour', 1020], ['WorkDays', 62], ['WorkDayStartHour', 480],
    ],
  };
}

function timeZoneEntity(link: string, ctx: ApiContext, zone: TimeZoneInfo = UTC_ZONE): Entity {
  const information: Value = { kind: 'complex', type: 'SP.TimeZoneInformation', props: [['Bias', zone.bias], ['DaylightBias', zone.daylightBias], ['StandardBias', 0]] };
  return {
    type: 'SP.TimeZone', id: `${ctx.apiUrl}${link}`, editLink: link,
    props: [['Description', zone.description], ['Id', zone.id], ['Information', information]],
  };
}

/** A zone of SharePoint's list by id (`timeZones(23)`, `timeZones/getById(23)`), else 404. */
function zoneEntity(id: number, ctx: ApiContext): Entity {
  const zone = timeZoneById(id);
  if (!zone) throw errors.resourceNotFound();
  return timeZoneEntity(`Web/RegionalSettings/TimeZones(${zone.id})`, ctx, zone);
}

export const regionalSettingsType: ResourceType<WebResource<'regionalSettings'>> = {
  permissions: { update: 'ManageWeb' },
  navigation: {
    timezone: async (r) => ({ kind: 'timeZone', web: r.web }),
    timezones: async (r) => ({ kind: 'timeZones', web: r.web }),
  },
  methods: {
    installedlanguages: {
      kind: 'function',
      invoke: async (_r, _args, ctx) => ok({
        kind: 'entity', metadataName: 'SP.LanguageCollection',
        entity: {
          type: 'SP.LanguageCollection', id: `${ctx.apiUrl}Web/RegionalSettings/InstalledLanguages`,
          props: [['Items', { kind: 'collection', elementType: 'SP.Language', items: [
            { kind: 'complex', type: 'SP.Language', props: [['DisplayName', 'English'], ['LanguageTag', 'en-US'], ['Lcid', 1033]] },
          ] }]],
        },
      }),
    },
  },
  get: async (r, ctx) => singleEntity(regionalSettingsEntity(r.web, ctx), 'SP.RegionalSettings', ctx),
  update: async () => { throw errors.notImplemented('SP.RegionalSettings.Update'); },
};

/** `utctolocaltime('2026-01-05T10:00:00.000Z')`: a date the time zone converts; UTC converts to itself. */
function dateArgument(args: Parameters<typeof stringArgument>[0], name: string): Date {
  const text = stringArgument(args, name);
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw errors.badArgument(`The value '${text}' is not a valid date and time.`);
  return date;
}

const isoSeconds = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export const timeZoneType: ResourceType<WebResource<'timeZone'>> = {
  methods: {
    utctolocaltime: {
      kind: 'function',
      invoke: async (_r, args) => ok({ kind: 'primitive', methodName: 'UTCToLocalTime', edmType: 'Edm.DateTime',
        // Local time carries no zone (spemu's sites are on UTC).
        value: isoSeconds(dateArgument(args, 'date')).replace(/Z$/, '') }),
    },
    localtimetoutc: {
      kind: 'function',
      invoke: async (_r, args) => ok({ kind: 'primitive', methodName: 'LocalTimeToUTC', edmType: 'Edm.DateTime',
        value: isoSeconds(dateArgument(args, 'date')) }),
    },
  },
  get: async (_r, ctx) => singleEntity(timeZoneEntity('Web/RegionalSettings/TimeZone', ctx), 'SP.TimeZone', ctx),
};

export const timeZonesType: ResourceType<WebResource<'timeZones'>> = {
  key: async (r, args, ctx) => {
    const id = integerArgument(args);
    // The site's own zone keeps its methods (utcToLocalTime…); the others are read only.
    if (id === UTC_ZONE.id) return { kind: 'timeZone', web: r.web };
    const entity = zoneEntity(id, ctx);
    return { kind: 'readOnly', read: async (c) => singleEntity(entity, 'SP.TimeZone', c) };
  },
  methods: {
    // PnPjs's timeZones.getById(n) POSTs it.
    getbyid: {
      kind: 'function',
      invoke: async (_r, args, ctx) => ok({ kind: 'entity', metadataName: 'SP.TimeZone', entity: zoneEntity(integerArgument(args, 'id'), ctx) }),
    },
  },
  get: async (_r, ctx) => entityCollection(TIME_ZONES.map((z) => timeZoneEntity(`Web/RegionalSettings/TimeZones(${z.id})`, ctx, z)), 'SP.ApiData.TimeZones', ctx),
};
