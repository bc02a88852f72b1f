// `--workers`: one throttling-and-faults state for the whole server, not one per worker. The
// primary's GateHub holds the configuration and counts the budget windows; each worker's
// TrafficGate has a WorkerGateHome (its GateHome) that asks the hub. The protocol, all of it,
// over node's cluster IPC channel (JSON: "throttling off" travels as null):
//
//   worker                                 primary (GateHub)
//   gate:hello                         ──► the worker now hears every change
//                                      ◄── gate:state {state}         (before the worker serves)
//   gate:publish {id, change}          ──► gate:set {n, change} to every worker (the sender too)
//                   every worker:  gate:applied {n}  ──►  once all have it (or died):
//                                      ◄── gate:published {id}        (the admin request answers)
//   gate:charge {id, caller, cost}     ──► (only while throttling is on: no IPC otherwise)
//                                      ◄── gate:charged {id, charge}
//
// Latency and the rules' seeded random draws stay in each worker (each draws from the seed alone).

import type { Worker } from 'node:cluster';
import { Budgets, type Caller, type Charge } from './budgets.ts';
import type { ThrottleConfig } from './config.ts';
import type { FaultsConfig } from './faults.ts';
import type { BudgetLedger, GateHome, GateState, TrafficGate } from './gate.ts';

/** A configuration change as sent: `throttle: null` is "throttling off" (JSON drops undefined). */
interface WireChange { faults?: FaultsConfig; throttle?: ThrottleConfig | null }

type ToPrimary =
  | { type: 'gate:hello' }
  | { type: 'gate:publish'; id: number; change: WireChange }
  | { type: 'gate:applied'; n: number }
  | { type: 'gate:charge'; id: number; caller: Caller; cost: number };

type ToWorker =
  | { type: 'gate:state'; state: WireChange }
  | { type: 'gate:set'; n: number; change: WireChange }
  | { type: 'gate:published'; id: number }
  | { type: 'gate:charged'; id: number; charge: Charge };

const toWire = (change: Partial<GateState>): WireChange => ({
  ...(change.faults ? { faults: change.faults } : {}),
  ...('throttle' in change ? { throttle: change.throttle ?? null } : {}),
});

const fromWire = (change: WireChange): Partial<GateState> => ({
  ...(change.faults ? { faults: change.faults } : {}),
  ...('throttle' in change ? { throttle: change.throttle ?? undefined } : {}),
});

const ADMITTED: Charge = { kind: 'admitted', headers: {} };

/** The primary's side: the one configuration and the one set of budget windows. */
export class GateHub {
  private state: GateState;
  private budgets: Budgets | undefined;
  /** Workers that said hello: each gets every change. */
  private readonly members = new Set<Worker>();
  /** Changes sent and not yet applied by every member: which members still owe it, and who waits. */
  private readonly sent = new Map<number, { owing: Set<Worker>; done: () => void }>();
  private nextChange = 1;

  constructor(initial: GateState, private readonly now: () => number = Date.now) {
    this.state = initial;
    this.budgets = initial.throttle ? new Budgets(initial.throttle) : undefined;
  }

  /** Serves a worker from its fork on: its hello, its changes, its charges; and forgets it when it exits. */
  attach(worker: Worker): void {
    worker.on('message', (message: ToPrimary) => this.receive(worker, message));
    worker.once('exit', () => {
      this.members.delete(worker);
      for (const [n, change] of this.sent) this.applied(n, worker, change);
    });
  }

  /** Applies `change` to the server: here, then in every worker; resolves once each has it (a worker that dies is not waited for). */
  publish(change: Partial<GateState>): Promise<void> {
    // A new throttle configuration starts with empty budgets, as in one process.
    if ('throttle' in change) this.budgets = change.throttle ? new Budgets(change.throttle) : undefined;
    this.state = { throttle: 'throttle' in change ? change.throttle : this.state.throttle, faults: change.faults ?? this.state.faults };
    if (this.members.size === 0) return Promise.resolve();
    const n = this.nextChange++;
    return new Promise((done) => {
      this.sent.set(n, { owing: new Set(this.members), done });
      for (const worker of this.members) send(worker, { type: 'gate:set', n, change: toWire(change) });
    });
  }

  private receive(worker: Worker, message: ToPrimary): void {
    switch (message?.type) {
      case 'gate:hello':
        // From here on the worker hears every change; what came before is in the state it gets.
        this.members.add(worker);
        send(worker, { type: 'gate:state', state: toWire(this.state) });
        break;
      case 'gate:publish':
        void this.publish(fromWire(message.change)).then(() => send(worker, { type: 'gate:published', id: message.id }));
        break;
      case 'gate:applied': {
        const change = this.sent.get(message.n);
        if (change) this.applied(message.n, worker, change);
        break;
      }
      case 'gate:charge':
        send(worker, { type: 'gate:charged', id: message.id, charge: this.budgets?.charge(message.caller, message.cost, this.now()) ?? ADMITTED });
        break;
    }
  }

  private applied(n: number, worker: Worker, change: { owing: Set<Worker>; done: () => void }): void {
    change.owing.delete(worker);
    if (change.owing.size > 0) return;
    this.sent.delete(n);
    change.done();
  }
}

/** A worker that died meanwhile is not sent to (its exit settles what it owed). */
function send(worker: Worker, message: ToWorker): void {
  if (!worker.isDead() && worker.isConnected()) worker.send(message, () => {});
}

/** A worker's side: its gate's home is the primary. */
export class WorkerGateHome implements GateHome {
  private gate: TrafficGate | undefined;
  private nextId = 1;
  /** Requests sent to the primary, by id: what resolves each when its answer comes. */
  private readonly waiting = new Map<number, (answer: Charge | undefined) => void>();
  private readonly listener = (message: ToWorker) => this.receive(message);
  private readonly disconnected = () => {
    // The primary is gone (the worker stops too): what was asked is let through.
    for (const resolve of this.waiting.values()) resolve(ADMITTED);
    this.waiting.clear();
  };
  private connected: ((state: WireChange) => void) | undefined;

  /** The primary's budgets, under the configuration it sent (and by its clock: the worker's `now` is not sent). */
  ledger(_config: ThrottleConfig): BudgetLedger {
    return { charge: (caller, cost) => this.ask<Charge>({ type: 'gate:charge', id: this.nextId++, caller, cost }) };
  }

  publish(change: Partial<GateState>): Promise<void> {
    return this.ask<void>({ type: 'gate:publish', id: this.nextId++, change: toWire(change) });
  }

  /** Says hello and configures `gate` with the server's state; from then on it follows every change. Before the worker serves. */
  connect(gate: TrafficGate): Promise<void> {
    this.gate = gate;
    process.on('message', this.listener);
    process.on('disconnect', this.disconnected);
    return new Promise((resolve) => {
      this.connected = (state) => { gate.configure(fromWire(state)); resolve(); };
      process.send!({ type: 'gate:hello' } satisfies ToPrimary);
    });
  }

  close(): void {
    process.off('message', this.listener);
    process.off('disconnect', this.disconnected);
  }

  private ask<T>(message: Extract<ToPrimary, { id: number }>): Promise<T> {
    if (!process.connected) return Promise.resolve(ADMITTED as T);
    return new Promise<T>((resolve) => {
      this.waiting.set(message.id, resolve as (answer: Charge | undefined) => void);
      process.send!(message);
    });
  }

  private receive(message: ToWorker): void {
    switch (message?.type) {
      case 'gate:state':
        this.connected?.(message.state);
        this.connected = undefined;
        break;
      case 'gate:set':
        this.gate?.configure(fromWire(message.change));
        if (process.connected) process.send!({ type: 'gate:applied', n: message.n } satisfies ToPrimary);
        break;
      case 'gate:published':
      case 'gate:charged': {
        const resolve = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        resolve?.(message.type === 'gate:charged' ? message.charge : undefined);
        break;
      }
    }
  }
}
