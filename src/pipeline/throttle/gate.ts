// The throttling-and-faults stage every front runs after authentication (and the REST front
// for each `$batch` part): added latency, then the resource-unit budgets (budgets.ts), then
// the fault rules (faults.ts). It answers with an admission: go on (maybe with RateLimit-*
// headers, maybe to be dropped or cut short when answered), or SharePoint's refusal. Off —
// no work at all — until throttling or a rule is configured. Where its state lives is its
// GateHome: by default this process (one Budgets here, changes applied at once); under
// `--workers`, the primary (shared-gate.ts: it counts the budgets and hands every change to
// every worker). Latency and the rules' random draws are always decided here.

import { SpError } from '../../wire/errors.ts';
import { faultError, loadErrors } from '../../wire/throttle-errors.ts';
import { Budgets, type Caller, type Charge } from './budgets.ts';
import type { ThrottleConfig } from './config.ts';
import { requestCost } from './costs.ts';
import { matches, type FaultRule, type FaultsConfig, type FaultTarget, type Latency } from './faults.ts';
import { SeededRandom } from './random.ts';

/** What happens to the connection when the answer is sent. */
export type Delivery = { kind: 'drop' } | { kind: 'truncate'; bytes: number };

export interface Admission {
  /** Headers for the answer: RateLimit-* near the app's budget; X-Spemu-* with --faults-debug. */
  headers: Record<string, string>;
  /** Refused: SharePoint's error to answer with (its headers carry Retry-After). */
  refusal?: SpError | undefined;
  /** Destroy the connection now, before the request runs. */
  dropNow?: boolean | undefined;
  /** Run the request, then drop or cut the answer. */
  delivery?: Delivery | undefined;
}

/** The part of a logger the stage writes to (fastify's request logger fits). */
export interface GateLogger {
  warn(details: object, message: string): void;
}

/** A request as the stage sees it. */
export interface GateRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: Record<string, string | undefined>;
  /** The authenticated user's UPN. */
  upn: string;
  /** A `$batch` part: it cannot drop or cut a connection of its own, so such rules pass it by. */
  inBatch: boolean;
}

/** What the rules decided for one request, before anything is waited for (unit-tested as is). */
export interface FaultPlan {
  latencyMs: number;
  /** Every rule that fired, in order (latency rules included). */
  fired: FaultRule[];
  /** The first fired rule with an error, drop or truncation: what is done to the answer. */
  action?: FaultRule | undefined;
}

export interface GateState {
  throttle: ThrottleConfig | undefined;
  faults: FaultsConfig;
}

/** Where budgets are counted: a Budgets in this process, or the primary's (asked per request). */
export interface BudgetLedger {
  charge(caller: Caller, cost: number, now: number): Charge | Promise<Charge>;
}

/** Where the gate's state is kept: the budgets, and who must hear of a configuration change. */
export interface GateHome {
  /** The ledger that counts budgets under `config` (a new one: budgets start empty). */
  ledger(config: ThrottleConfig): BudgetLedger;
  /** Makes `change` hold for every gate of the server (this one's `configure` included); resolves once it does. */
  publish(change: Partial<GateState>): Promise<void>;
}

export class TrafficGate {
  private throttle: ThrottleConfig | undefined;
  private ledger: BudgetLedger | undefined;
  private faults: FaultsConfig = { seed: 1, rules: [] };
  private random = new SeededRandom(1);

  constructor(private readonly options: { now: () => number; debug: boolean; home?: GateHome | undefined }, state: Partial<GateState> = {}) {
    this.configure(state);
  }

  /** Replaces what is set in this gate (budgets start empty again, the random source from the seed). */
  configure(state: Partial<GateState>): void {
    if ('throttle' in state) {
      this.throttle = state.throttle;
      this.ledger = !state.throttle ? undefined : this.options.home ? this.options.home.ledger(state.throttle) : new Budgets(state.throttle);
    }
    if (state.faults) {
      this.faults = state.faults;
      this.random = new SeededRandom(state.faults.seed);
    }
  }

  /**
   * Changes the configuration of the whole server: this gate at once (one process), or every
   * worker's gate, resolving once each has it (`--workers`). The admin endpoint's way in.
   */
  update(change: Partial<GateState>): Promise<void> {
    if (this.options.home) return this.options.home.publish(change);
    this.configure(change);
    return Promise.resolve();
  }

  state(): GateState {
    return { throttle: this.throttle, faults: this.faults };
  }

  get active(): boolean {
    return this.ledger !== undefined || this.faults.rules.length > 0;
  }

  /** Decides the faults for one request: which rules fire (drawn from the seeded source) and the latency they add. */
  plan(target: FaultTarget, inBatch: boolean): FaultPlan {
    const plan: FaultPlan = { latencyMs: 0, fired: [] };
    for (const rule of this.faults.rules) {
      if (!matches(rule, target)) continue;
      const acts = rule.error !== undefined || (!inBatch && (rule.drop !== undefined || rule.truncate !== undefined));
      if (!acts && rule.latency === undefined) continue;
      if (rule.rate < 1 && this.random.next() >= rule.rate) continue;
      plan.fired.push(rule);
      if (rule.latency) plan.latencyMs += this.sample(rule.latency);
      if (acts && !plan.action) plan.action = rule;
    }
    plan.latencyMs = Math.round(plan.latencyMs);
    return plan;
  }

  /** The stage: latency, budgets, faults. Never throws; a refusal is in the admission. */
  async admit(request: GateRequest, log: GateLogger): Promise<Admission> {
    const admission: Admission = { headers: {} };
    if (!this.active) return admission;
    const caller: Caller = { user: request.upn.toLowerCase(), app: appIdOf(request.headers.authorization) };
    const target: FaultTarget = { method: request.method, path: decodedPath(request.url), user: caller.user, app: caller.app };
    const plan = this.plan(target, request.inBatch);
    const debug = (name: string, value: string) => { if (this.options.debug) admission.headers[name] = value; };
    const logFault = (rule: FaultRule, fault: string) =>
      log.warn({ rule: rule.name, fault, method: request.method, url: target.path, user: caller.user, app: caller.app, inBatch: request.inBatch }, 'fault injected');

    if (plan.latencyMs > 0) {
      for (const rule of plan.fired.filter((r) => r.latency)) logFault(rule, 'latency');
      debug('X-Spemu-Latency', String(plan.latencyMs));
      await new Promise((resolve) => setTimeout(resolve, plan.latencyMs));
    }

    if (this.ledger) {
      const cost = requestCost(request.method, request.url, request.headers['x-http-method']);
      if (cost > 0) {
        const answer = this.ledger.charge(caller, cost, this.options.now());
        // A local ledger answers at once: no extra turn of the event loop for one process.
        const charge = answer instanceof Promise ? await answer : answer;
        Object.assign(admission.headers, charge.kind === 'admitted' ? charge.headers : {});
        if (charge.kind !== 'admitted') {
          log.warn({ limit: charge.limit, status: charge.kind === 'blocked' ? 503 : 429, retryAfter: charge.retryAfter, method: request.method, url: target.path, inBatch: request.inBatch }, 'request throttled');
          debug('X-Spemu-Throttle', charge.limit);
          admission.refusal = charge.kind === 'blocked' ? loadErrors.appBlocked(charge.retryAfter) : loadErrors.throttled(charge.retryAfter, charge.headers);
          return withHeaders(admission);
        }
      }
    }

    const rule = plan.action;
    if (!rule) return admission;
    debug('X-Spemu-Fault', rule.name);
    if (rule.error !== undefined) {
      logFault(rule, `error ${rule.error}`);
      admission.refusal = faultError(rule.error, rule.retryAfter ?? 5);
      return withHeaders(admission);
    }
    if (rule.drop === 'before') {
      logFault(rule, 'drop before');
      admission.dropNow = true;
    } else if (rule.drop === 'after') {
      logFault(rule, 'drop after');
      admission.delivery = { kind: 'drop' };
    } else if (rule.truncate !== undefined) {
      logFault(rule, `truncate ${rule.truncate}`);
      admission.delivery = { kind: 'truncate', bytes: rule.truncate };
    }
    return admission;
  }

  private sample(latency: Latency): number {
    switch (latency.kind) {
      case 'fixed': return latency.ms;
      case 'uniform': return this.random.uniform(latency.min, latency.max);
      case 'normal': return Math.max(0, this.random.normal(latency.mean, latency.stdDev));
    }
  }
}

/** The refusal carries the admission's headers (RateLimit-*, X-Spemu-*) as its own. */
function withHeaders(admission: Admission): Admission {
  const r = admission.refusal!;
  admission.refusal = new SpError(r.status, r.code, r.message, { ...r.headers, ...admission.headers });
  return admission;
}

function decodedPath(url: string): string {
  const path = url.split('?', 1)[0]!;
  try { return decodeURIComponent(path); } catch { return path; }
}

/**
 * The app a request comes from: the bearer token's `appid` (v1 tokens) or `azp` (v2); '' for
 * Basic, cookie and anonymous requests. The token was verified by authentication already.
 */
export function appIdOf(authorization: string | undefined): string {
  const m = /^\s*bearer\s+([^.\s]+)\.([^.\s]+)\./i.exec(authorization ?? '');
  if (!m) return '';
  try {
    const claims = JSON.parse(Buffer.from(m[2]!, 'base64url').toString('utf8')) as { appid?: unknown; azp?: unknown };
    const id = claims.appid ?? claims.azp;
    return typeof id === 'string' ? id.toLowerCase() : '';
  } catch {
    return '';
  }
}
