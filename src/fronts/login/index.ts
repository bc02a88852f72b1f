// Front: the browser sign-in page, `/_spemu/login` and `/_spemu/logout`.

import type { FastifyPluginAsync } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { registerLogin } from './login.ts';

export const loginFront: FastifyPluginAsync<{ deps: FrontDeps }> = async (app, { deps }) => {
  registerLogin(app, deps);
};
