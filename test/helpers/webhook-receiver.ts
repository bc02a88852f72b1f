// A real webhook receiver for tests: a node http server on an ephemeral loopback port that
// records every request (path, query, body) and answers as the test tells it — by default
// SharePoint's contract: a validation request (`?validationtoken=`) gets 200 with the token
// as text/plain, a notification gets 200. Tests swap `respond` to misbehave (500s, silence,
// huge bodies, redirects).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export type Responder = (req: ReceivedRequest, res: ServerResponse) => void;

/** SharePoint's receiver contract: echo the validation token, take notifications with 200. */
export const sharePointContract: Responder = (req, res) => {
  const token = req.query.get('validationtoken');
  res.writeHead(200, { 'Content-Type': 'text/plain' });
  res.end(token ?? '');
};

export interface Receiver {
  /** Base URL, e.g. `http://127.0.0.1:41234` (append any path). */
  url: string;
  requests: ReceivedRequest[];
  /** The notifications (not validations) received, their bodies parsed. */
  notifications(): Array<{ path: string; value: Array<Record<string, unknown>> }>;
  /** How the next requests are answered. */
  respond: Responder;
  /** Resolves once `count` notifications have arrived (or rejects after `ms`). */
  waitForNotifications(count: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(respond: Responder = sharePointContract): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const receiver: Receiver = {
    url: '', requests, respond,
    notifications: () => requests.filter((r) => !r.query.has('validationtoken'))
      .map((r) => ({ path: r.path, value: (JSON.parse(r.body) as { value: Array<Record<string, unknown>> }).value })),
    async waitForNotifications(count, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (receiver.notifications().length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} notifications, got ${receiver.notifications().length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      const received: ReceivedRequest = {
        method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'), at: Date.now(),
      };
      requests.push(received);
      receiver.respond(received, res);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
