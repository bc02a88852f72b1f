// The resource-unit model: every request is charged to its user (one request), its app and the
// tenant (its cost in resource units), each over sliding windows (window.ts). A request that
// does not fit is throttled (429, integer Retry-After); an app throttled too often is blocked
// for a while (503). RateLimit-* headers tell a client it has used 80 % of its app's first budget.

import type { Limit, ThrottleConfig } from './config.ts';
import { SlidingWindow } from './window.ts';

export interface Caller {
  /** The user's UPN, lower case. */
  user: string;
  /** The app id (a bearer token's `appid`/`azp`), or '' when the request names none. */
  app: string;
}

export type Charge =
  /** Admitted; `headers` are RateLimit-* once the app's first budget is 80 % used. */
  | { kind: 'admitted'; headers: Record<string, string> }
  /** 429: `retryAfter` whole seconds; `headers` carry RateLimit-* when the app's first budget is the one exceeded. */
  | { kind: 'throttled'; retryAfter: number; headers: Record<string, string>; limit: string }
  /** 503: the app is blocked for `retryAfter` more seconds. */
  | { kind: 'blocked'; retryAfter: number; limit: string };

/** Usage at which RateLimit-* headers start (SharePoint: "when usage is ≥ 80 %"). */
const WARNING_SHARE = 0.8;

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class Budgets {
  private readonly windows = new Map<string, SlidingWindow[]>();
  private readonly throttledCounts = new Map<string, SlidingWindow>();
  private readonly blockedUntil = new Map<string, number>();

  constructor(readonly config: ThrottleConfig) {}

  /** Charges one request costing `cost` resource units at `now` (ms), or refuses it. */
  charge(caller: Caller, cost: number, now: number): Charge {
    const until = this.blockedUntil.get(caller.app) ?? 0;
    if (until > now) return { kind: 'blocked', retryAfter: seconds(until - now), limit: 'app blocked' };

    const app = this.windowsOf(`app\n${caller.app}`, this.config.app);
    const checks: Array<{ window: SlidingWindow; cost: number; name: string }> = [
      ...app.map((window) => ({ window, cost, name: `app ${caller.app || '(none)'} ${describe(window)} RU` })),
      ...this.windowsOf(`user\n${caller.user}`, this.config.user).map((window) => ({ window, cost: 1, name: `user ${caller.user} ${describe(window)} requests` })),
      ...this.windowsOf('tenant', this.config.tenant).map((window) => ({ window, cost, name: `tenant ${describe(window)} RU` })),
    ];
    const over = checks.filter((c) => !c.window.fits(c.cost, now));
    if (over.length === 0) {
      for (const c of checks) c.window.spend(c.cost, now);
      return { kind: 'admitted', headers: this.warning(app[0], now) };
    }
    // SharePoint: "throttled requests still count toward the limits". Retry-After is then when the
    // request would fit with its own throttled charge still counted: honest, never too early.
    if (this.config.countThrottled) for (const c of checks) c.window.spend(c.cost, now);
    const wait = Math.max(...over.map((c) => c.window.waitFor(c.cost, now)));
    const retryAfter = seconds(wait);
    const first = app[0];
    const byAppMinute = first !== undefined && over.some((c) => c.window === first);
    const headers: Record<string, string> = byAppMinute
      ? { 'RateLimit-Limit': String(first.limit), 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(retryAfter) }
      : {};
    const blocked = this.noteThrottled(caller.app, now);
    if (blocked) return blocked;
    return { kind: 'throttled', retryAfter, headers, limit: over.map((c) => c.name).join('; ') };
  }

  /** RateLimit-* for the app's first budget once it is 80 % used (IETF draft names, as SharePoint sends them). */
  private warning(window: SlidingWindow | undefined, now: number): Record<string, string> {
    if (!window) return {};
    const used = window.used(now);
    if (used < window.limit * WARNING_SHARE) return {};
    return {
      'RateLimit-Limit': String(window.limit),
      'RateLimit-Remaining': String(Math.max(0, window.limit - used)),
      'RateLimit-Reset': String(seconds(window.nextRelease(now))),
    };
  }

  /** Counts a throttled answer to the app; past `block.after` within its window, the app is blocked. */
  private noteThrottled(app: string, now: number): Charge | undefined {
    const block = this.config.block;
    if (!block) return undefined;
    let count = this.throttledCounts.get(app);
    if (!count) this.throttledCounts.set(app, count = new SlidingWindow(block.after, block.windowMs));
    count.spend(1, now);
    if (count.used(now) < block.after) return undefined;
    this.blockedUntil.set(app, now + block.forMs);
    this.throttledCounts.delete(app);
    return { kind: 'blocked', retryAfter: seconds(block.forMs), limit: `app ${app || '(none)'} blocked after ${block.after} throttled requests` };
  }

  private windowsOf(key: string, limits: Limit[]): SlidingWindow[] {
    let windows = this.windows.get(key);
    if (!windows) this.windows.set(key, windows = limits.map((l) => new SlidingWindow(l.units, l.windowMs)));
    return windows;
  }
}

function describe(window: SlidingWindow): string {
  const ms = window.windowMs;
  const text = ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : ms % 60_000 === 0 ? `${ms / 60_000}m` : ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
  return `${window.limit}/${text}`;
}
