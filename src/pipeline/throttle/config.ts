// What throttling enforces, and how it is written: `--throttle spo-default` (SharePoint
// Online's documented limits for the smallest tenants), or numbers
// (`--throttle app-ru=10/5s,user-requests=100/1m`), or the same as an object.

/** A budget: `units` (resource units, or requests for a user) per `windowMs`. */
export interface Limit {
  units: number;
  windowMs: number;
}

export interface ThrottleConfig {
  /** Resource units per app (the bearer token's app id). The first is "the app's 1-minute limit": it sends RateLimit-* headers. */
  app: Limit[];
  /** Requests per user (a `$batch` part is one request). */
  user: Limit[];
  /** Resource units for the whole tenant. */
  tenant: Limit[];
  /** An app throttled this many times within `windowMs` is blocked (503) for `forMs`; undefined: never. */
  block?: { after: number; windowMs: number; forMs: number } | undefined;
  /** Throttled requests still count toward the limits, as SharePoint documents. Default true. */
  countThrottled: boolean;
}

export class ThrottleConfigError extends Error {}

const MINUTE = 60_000;

/**
 * SharePoint Online's documented limits (how-to-avoid-getting-throttled-or-blocked-in-sharepoint-online),
 * for the smallest tenant tier (0–1,000 licences): 1,250 RU per app per minute and 1,200,000 per
 * 24 hours, 18,750 RU per 5 minutes for the tenant, 3,000 requests per user per 5 minutes.
 */
export const SPO_DEFAULT: ThrottleConfig = {
  app: [{ units: 1250, windowMs: MINUTE }, { units: 1_200_000, windowMs: 24 * 60 * MINUTE }],
  user: [{ units: 3000, windowMs: 5 * MINUTE }],
  tenant: [{ units: 18_750, windowMs: 5 * MINUTE }],
  countThrottled: true,
};

const PRESETS: Record<string, ThrottleConfig> = { 'spo-default': SPO_DEFAULT };

/** `500ms`, `5s`, `1m`, `5m`, `24h`, `1d`; a bare number is seconds. */
export function parseDuration(text: string, what: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(text);
  const unit = { ms: 1, s: 1000, m: MINUTE, h: 60 * MINUTE, d: 24 * 60 * MINUTE }[(m?.[2] ?? 's').toLowerCase() as 's'];
  const ms = m ? Math.round(Number(m[1]) * unit) : NaN;
  if (!(ms > 0)) throw new ThrottleConfigError(`${what}: '${text}' is not a duration such as 500ms, 5s, 1m or 24h.`);
  return ms;
}

/** `1250/1m` → 1250 units per minute. */
function parseLimit(text: string, what: string): Limit {
  const [units = '', window = ''] = text.split('/');
  const n = Number(units);
  if (!Number.isInteger(n) || n < 1 || !window) throw new ThrottleConfigError(`${what}: '${text}' is not a budget such as 1250/1m (whole units, a slash, a duration).`);
  return { units: n, windowMs: parseDuration(window, what) };
}

function whole(text: string, what: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new ThrottleConfigError(`${what} must be a whole number ≥ 1, not '${text}'.`);
  return n;
}

/**
 * The `--throttle` text: a preset name, then (or instead) comma-separated settings that add to it:
 * `app-ru=N/dur`, `user-requests=N/dur`, `tenant-ru=N/dur` (each may repeat), `ru-per-minute=N`,
 * `ru-per-day=N` (the app's), `block-after=N/dur`, `block-for=dur`, `count-throttled=false`.
 * A setting of a kind replaces the preset's limits of that kind. `off` or empty: undefined.
 */
export function parseThrottle(text: string): ThrottleConfig | undefined {
  const entries = text.split(',').map((e) => e.trim()).filter(Boolean);
  if (entries.length === 0 || (entries.length === 1 && entries[0]!.toLowerCase() === 'off')) return undefined;
  let base: ThrottleConfig = { app: [], user: [], tenant: [], countThrottled: true };
  const given: Pick<ThrottleConfig, 'app' | 'user' | 'tenant'> = { app: [], user: [], tenant: [] };
  let block: { after?: number; windowMs?: number; forMs?: number } | undefined;
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    if (eq < 0) {
      const preset = PRESETS[entry.toLowerCase()];
      if (!preset) throw new ThrottleConfigError(`--throttle: unknown preset '${entry}' (known: ${Object.keys(PRESETS).join(', ')}, or settings such as app-ru=1250/1m).`);
      base = structuredClone(preset);
      continue;
    }
    const key = entry.slice(0, eq).trim().toLowerCase();
    const value = entry.slice(eq + 1).trim();
    const what = `--throttle ${key}`;
    switch (key) {
      case 'app-ru': given.app.push(parseLimit(value, what)); break;
      case 'user-requests': given.user.push(parseLimit(value, what)); break;
      case 'tenant-ru': given.tenant.push(parseLimit(value, what)); break;
      case 'ru-per-minute': given.app.unshift({ units: whole(value, what), windowMs: MINUTE }); break;
      case 'ru-per-day': given.app.push({ units: whole(value, what), windowMs: 24 * 60 * MINUTE }); break;
      case 'block-after': {
        const limit = parseLimit(value, what);
        block = { ...block, after: limit.units, windowMs: limit.windowMs };
        break;
      }
      case 'block-for': block = { ...block, forMs: parseDuration(value, what) }; break;
      case 'count-throttled':
        if (!/^(true|false)$/i.test(value)) throw new ThrottleConfigError(`${what} must be true or false, not '${value}'.`);
        base.countThrottled = value.toLowerCase() === 'true';
        break;
      default:
        throw new ThrottleConfigError(`--throttle: unknown setting '${key}' (app-ru, user-requests, tenant-ru, ru-per-minute, ru-per-day, block-after, block-for, count-throttled).`);
    }
  }
  for (const kind of ['app', 'user', 'tenant'] as const) if (given[kind].length > 0) base[kind] = given[kind];
  if (block) {
    if (block.after === undefined) throw new ThrottleConfigError('--throttle block-for needs block-after=N/duration.');
    base.block = { after: block.after, windowMs: block.windowMs!, forMs: block.forMs ?? 5 * MINUTE };
  }
  return base;
}

/** A config given as an object (startServer, POST /_spemu/faults), checked as the text is. */
export function throttleFromValue(value: unknown): ThrottleConfig | undefined {
  if (value === undefined || value === null || value === false) return undefined;
  if (typeof value === 'string') return parseThrottle(value);
  if (typeof value !== 'object') throw new ThrottleConfigError('throttle must be a preset name, settings text, or an object.');
  const v = value as Partial<ThrottleConfig> & { preset?: string };
  const base = v.preset ? parseThrottle(v.preset) ?? structuredClone(SPO_DEFAULT) : { app: [], user: [], tenant: [], countThrottled: true };
  const limits = (list: unknown, kind: string): Limit[] | undefined => {
    if (list === undefined) return undefined;
    if (!Array.isArray(list)) throw new ThrottleConfigError(`throttle.${kind} must be a list of { units, windowMs }.`);
    return list.map((l: Partial<Limit>) => {
      if (!Number.isInteger(l?.units) || l.units! < 1 || !(typeof l.windowMs === 'number' && l.windowMs > 0)) {
        throw new ThrottleConfigError(`throttle.${kind}: each limit needs whole units ≥ 1 and windowMs > 0.`);
      }
      return { units: l.units!, windowMs: l.windowMs };
    });
  };
  const block = v.block;
  if (block !== undefined && !(Number.isInteger(block.after) && block.after > 0 && block.windowMs > 0 && block.forMs > 0)) {
    throw new ThrottleConfigError('throttle.block needs after (whole, ≥ 1), windowMs and forMs (> 0).');
  }
  return {
    app: limits(v.app, 'app') ?? base.app, user: limits(v.user, 'user') ?? base.user, tenant: limits(v.tenant, 'tenant') ?? base.tenant,
    block: block ?? base.block, countThrottled: v.countThrottled ?? base.countThrottled,
  };
}
