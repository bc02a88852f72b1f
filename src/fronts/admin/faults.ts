// `/_spemu/faults`: fault rules and throttling at run time, for test suites.
//   GET     what is in force: { seed, rules, throttle }
//   POST    replaces it: { "seed": 7, "rules": [ … ], "throttle": "app-ru=10/5s" } (a key left out stays as it is)
//   DELETE  clears both: no rules, no throttling
// With --workers, a change holds for every worker before it is answered.
// Rules and throttle text are checked as the flags are; a wrong one is a 400 and changes nothing.

import type { FastifyInstance } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { RequestBody } from '../../pipeline/body.ts';
import { throttleFromValue, ThrottleConfigError, type ThrottleConfig } from '../../pipeline/throttle/config.ts';
import { FaultConfigError, parseFaults, type FaultsConfig } from '../../pipeline/throttle/faults.ts';
import type { GateState } from '../../pipeline/throttle/gate.ts';
import { errors } from '../../wire/errors.ts';
import { requireAdmin } from './admin-auth.ts';

export function registerFaults(app: FastifyInstance, deps: FrontDeps): void {
  const gate = deps.gate;
  if (!gate) return;
  const show = (state: GateState) => ({ seed: state.faults.seed, rules: state.faults.rules, throttle: state.throttle ?? null });

  app.get('/_spemu/faults', async (req, reply) => {
    await requireAdmin(req, deps);
    return reply.header('Cache-Control', 'no-store').send(show(gate.state()));
  });

  app.post('/_spemu/faults', async (req, reply) => {
    const upn = await requireAdmin(req, deps);
    const text = (await RequestBody.fromRequest(req.body, req.headers['content-length'], deps.bodyLimit)?.bytes())?.toString('utf8') ?? '';
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = text.trim() ? JSON.parse(text) : {};
      body = Array.isArray(parsed) ? { rules: parsed } : parsed as Record<string, unknown>;
      if (!body || typeof body !== 'object') throw new SyntaxError('expected a JSON object');
    } catch (e) {
      throw errors.badArgument(`The body is not a faults document: ${(e as Error).message}`);
    }
    let faults: FaultsConfig | undefined;
    let throttle: ThrottleConfig | undefined;
    try {
      if ('rules' in body || 'seed' in body) faults = parseFaults({ seed: body.seed, rules: body.rules ?? [] }, 'body');
      if ('throttle' in body) throttle = throttleFromValue(body.throttle);
    } catch (e) {
      if (e instanceof FaultConfigError || e instanceof ThrottleConfigError) throw errors.badArgument(e.message);
      throw e;
    }
    // Under --workers this answers once every worker has the change (pipeline/throttle/shared-gate.ts).
    await gate.update({ ...(faults ? { faults } : {}), ...('throttle' in body ? { throttle } : {}) });
    req.log.info({ by: upn, rules: gate.state().faults.rules.length, throttle: gate.state().throttle !== undefined }, 'fault rules set');
    return reply.header('Cache-Control', 'no-store').send(show(gate.state()));
  });

  app.delete('/_spemu/faults', async (req, reply) => {
    const upn = await requireAdmin(req, deps);
    await gate.update({ faults: { seed: 1, rules: [] }, throttle: undefined });
    req.log.info({ by: upn }, 'fault rules cleared');
    return reply.code(204).send();
  });
}
