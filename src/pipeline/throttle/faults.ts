// Fault rules: what to do to which requests. A rule matches by method, path pattern, user and
// app; it fires on a share of those (`rate`, drawn from the seeded source) and then adds
// latency, answers an error, drops the connection, or cuts the body short. Rules come from
// `--fault` flags, a faults.json file, POST /_spemu/faults or startServer({ faults }), all in
// this one shape, checked here.

export type Latency =
  | { kind: 'fixed'; ms: number }
  | { kind: 'uniform'; min: number; max: number }
  | { kind: 'normal'; mean: number; stdDev: number };

export interface FaultRule {
  /** For the log line (and --faults-debug): the rule that fired. Default `rule <n>`. */
  name: string;
  /** Upper case; undefined: any. */
  method?: string | undefined;
  /** A pattern for the path (without the query): `*` any characters, `?` one; case-insensitive. */
  path?: string | undefined;
  /** A pattern for the user's UPN. */
  user?: string | undefined;
  /** A pattern for the app id ('' when the request names none). */
  app?: string | undefined;
  /** Share of matching requests it fires on, 0–1. Default 1. */
  rate: number;
  latency?: Latency | undefined;
  /** An HTTP status (429, 500, 503, 504) or a named SharePoint error (`listViewThreshold`, `securityValidation`, …). */
  error?: number | string | undefined;
  /** Retry-After seconds on a 429 or 503 error. Default 5 (as Dev Proxy). */
  retryAfter?: number | undefined;
  /** Destroy the connection: before the request runs, or after it ran (its effects stay) instead of answering. */
  drop?: 'before' | 'after' | undefined;
  /** Send the headers and this many bytes of the body, then destroy the connection. */
  truncate?: number | undefined;
}

export interface FaultsConfig {
  seed: number;
  rules: FaultRule[];
}

export class FaultConfigError extends Error {}

/** Named errors a rule may answer with besides a bare status (wire/throttle-errors.ts has their bodies). */
export const NAMED_ERRORS = ['throttled', 'serverBusy', 'listViewThreshold', 'securityValidation', 'digestInvalid', 'accessDenied', 'internal', 'gatewayTimeout'] as const;
export const ERROR_STATUSES = [429, 500, 503, 504] as const;

/** Checks a faults document (`{ seed?, rules: [...] }`, or a bare list of rules; a rule is an object or `--fault` text). */
export function parseFaults(value: unknown, where = 'faults'): FaultsConfig {
  if (value === undefined || value === null) return { seed: 1, rules: [] };
  const doc = Array.isArray(value) ? { rules: value } : value as { seed?: unknown; rules?: unknown };
  if (typeof doc !== 'object') throw new FaultConfigError(`${where}: expected { "seed": n, "rules": [ … ] }.`);
  const seed = doc.seed ?? 1;
  if (!Number.isInteger(seed)) throw new FaultConfigError(`${where}.seed must be a whole number.`);
  if (doc.rules !== undefined && !Array.isArray(doc.rules)) throw new FaultConfigError(`${where}.rules must be a list.`);
  // A rule may also be written as a `--fault` flag's text.
  const rules = ((doc.rules ?? []) as unknown[]).map((r, i) => (typeof r === 'string' ? parseFaultFlag(r, i) : parseRule(r, `${where}.rules[${i}]`, i)));
  return { seed: seed as number, rules };
}

const KNOWN_KEYS = new Set(['name', 'method', 'path', 'user', 'app', 'rate', 'latency', 'error', 'status', 'retryAfter', 'drop', 'truncate']);

function parseRule(value: unknown, where: string, index: number): FaultRule {
  if (typeof value !== 'object' || value === null) throw new FaultConfigError(`${where} must be an object.`);
  const r = value as Record<string, unknown>;
  for (const key of Object.keys(r)) if (!KNOWN_KEYS.has(key)) throw new FaultConfigError(`${where}: unknown key '${key}' (${[...KNOWN_KEYS].join(', ')}).`);
  const text = (key: string) => {
    const v = r[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v === '') throw new FaultConfigError(`${where}.${key} must be a non-empty string.`);
    return v;
  };
  const rate = r.rate ?? 1;
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) throw new FaultConfigError(`${where}.rate must be a number from 0 to 1.`);
  const error = r.error ?? r.status;
  if (error !== undefined && !(ERROR_STATUSES as readonly unknown[]).includes(error) && !(NAMED_ERRORS as readonly unknown[]).includes(error)) {
    throw new FaultConfigError(`${where}.error must be one of ${[...ERROR_STATUSES, ...NAMED_ERRORS].join(', ')}, not '${String(error)}'.`);
  }
  const retryAfter = r.retryAfter;
  if (retryAfter !== undefined && !(Number.isInteger(retryAfter) && (retryAfter as number) >= 0)) throw new FaultConfigError(`${where}.retryAfter must be whole seconds ≥ 0.`);
  const drop = r.drop === true ? 'before' : r.drop === false ? undefined : r.drop;
  if (drop !== undefined && drop !== 'before' && drop !== 'after') throw new FaultConfigError(`${where}.drop must be true, "before" or "after".`);
  const truncate = r.truncate;
  if (truncate !== undefined && !(Number.isInteger(truncate) && (truncate as number) >= 0)) throw new FaultConfigError(`${where}.truncate must be a whole number of bytes ≥ 0.`);
  const latency = parseLatency(r.latency, `${where}.latency`);
  if (error === undefined && drop === undefined && truncate === undefined && latency === undefined) {
    throw new FaultConfigError(`${where} does nothing: give it an error, latency, drop or truncate.`);
  }
  const method = text('method')?.toUpperCase();
  return {
    name: text('name') ?? `rule ${index + 1}`, method, path: text('path'), user: text('user'), app: typeof r.app === 'string' ? r.app : undefined,
    rate, latency, error: error as FaultRule['error'], retryAfter: retryAfter as number | undefined, drop, truncate: truncate as number | undefined,
  };
}

/** `200` (fixed ms), `{ "min": 100, "max": 500 }` (uniform), `{ "mean": 300, "stdDev": 50 }` (normal, never below 0). */
function parseLatency(value: unknown, where: string): Latency | undefined {
  if (value === undefined) return undefined;
  const ms = (v: unknown) => typeof v === 'number' && v >= 0 && Number.isFinite(v);
  if (ms(value)) return { kind: 'fixed', ms: value as number };
  const v = value as Record<string, unknown>;
  if (typeof v === 'object' && v !== null) {
    if (ms(v.min) && ms(v.max) && (v.max as number) >= (v.min as number)) return { kind: 'uniform', min: v.min as number, max: v.max as number };
    if (ms(v.mean) && ms(v.stdDev)) return { kind: 'normal', mean: v.mean as number, stdDev: v.stdDev as number };
  }
  throw new FaultConfigError(`${where} must be milliseconds, { "min", "max" } or { "mean", "stdDev" }.`);
}

/**
 * One `--fault` flag: comma-separated `key=value` (`method=GET,path=*\/items*,error=503,rate=0.5`;
 * `latency=200`, `latency=100-500`, `latency=normal:300:50`; `drop`, `drop=after`, `truncate=100`).
 */
export function parseFaultFlag(text: string, index: number): FaultRule {
  const rule: Record<string, unknown> = {};
  for (const entry of text.split(',').map((e) => e.trim()).filter(Boolean)) {
    const eq = entry.indexOf('=');
    const key = (eq < 0 ? entry : entry.slice(0, eq)).trim();
    const value = eq < 0 ? undefined : entry.slice(eq + 1).trim();
    const number = (v: string | undefined) => (v !== undefined && v !== '' && !Number.isNaN(Number(v)) ? Number(v) : v);
    switch (key) {
      case 'drop': rule.drop = value ?? true; break;
      case 'latency': {
        const range = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(value ?? '');
        const normal = /^normal:(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/i.exec(value ?? '');
        rule.latency = range ? { min: Number(range[1]), max: Number(range[2]) } : normal ? { mean: Number(normal[1]), stdDev: Number(normal[2]) } : number(value);
        break;
      }
      case 'error': case 'status': case 'rate': case 'truncate': case 'retryAfter': case 'retry-after':
        rule[key === 'retry-after' ? 'retryAfter' : key] = number(value);
        break;
      default: rule[key] = value;
    }
  }
  return parseRule(rule, `--fault '${text}'`, index);
}

/** A `*`/`?` pattern as a case-insensitive, whole-string regular expression. */
export function patternRegExp(pattern: string): RegExp {
  const body = pattern.split('').map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\/]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`, 'i');
}

/** What a rule is matched against. */
export interface FaultTarget {
  method: string;
  /** Decoded path, without the query. */
  path: string;
  user: string;
  app: string;
}

export function matches(rule: FaultRule, target: FaultTarget): boolean {
  if (rule.method && rule.method !== target.method.toUpperCase()) return false;
  if (rule.path && !patternRegExp(rule.path).test(target.path)) return false;
  if (rule.user && !patternRegExp(rule.user).test(target.user)) return false;
  if (rule.app !== undefined && !patternRegExp(rule.app).test(target.app)) return false;
  return true;
}
