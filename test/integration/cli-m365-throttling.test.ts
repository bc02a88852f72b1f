// CLI for Microsoft 365 (@pnp/cli-microsoft365 11.11.0, unmodified) against spemu's throttling
// and fault rules (issue #10). The CLI's own retry (dist/request.js): any 429 or 503 answer is
// retried after `parseInt(Retry-After)` seconds (10 when the header is missing or not a number),
// with no limit on the number of retries. Observed here on the wire through `--debug`, whose
// request log goes to stderr as the CLI runs: each line is timed as it arrives, so the wait
// between the throttled answer and the retry is measured, not assumed. Set-up as in
// cli-m365.test.ts: HTTPS, `--authType identity` at spemu's managed-identity endpoint, a temp HOME.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { tlsRequest } from '../helpers/tls-request.ts';
import { useM365, type Line } from '../helpers/m365-cli.ts';

const ALICE = 'alice@contoso.onmicrosoft.com';

/**
 * The CLI's `--debug` log as events: each request it sent (`Request:` then its JSON, with the
 * URL) and each answer (`Response:` or `Request error:` then JSON with the status and headers),
 * with the time the header line arrived.
 */
function wireEvents(lines: Line[]): Array<{ kind: 'request' | 'answer'; at: number; url: string; status?: number; retryAfter?: string }> {
  const events: Array<{ kind: 'request' | 'answer'; at: number; url: string; status?: number; retryAfter?: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    const head = lines[i]!.text.trim();
    if (head !== 'Request:' && head !== 'Response:' && head !== 'Request error:') continue;
    // The JSON that follows, up to its closing brace at the start of a line.
    const body: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      body.push(lines[j]!.text);
      if (lines[j]!.text === '}') break;
    }
    let json: { url?: string; status?: number; headers?: Record<string, string> };
    try { json = JSON.parse(body.join('\n')); } catch { continue; }
    events.push(head === 'Request:'
      ? { kind: 'request', at: lines[i]!.at, url: json.url ?? '' }
      : { kind: 'answer', at: lines[i]!.at, url: json.url ?? '', status: json.status, retryAfter: json.headers?.['retry-after'] });
  }
  return events;
}

/** The command's JSON result: `--debug` may print its own lines to stdout before it. */
function result(stdout: string): any {
  const start = stdout.search(/^[[{]/m);
  assert.ok(start >= 0, `no JSON on stdout: ${stdout}`);
  return JSON.parse(stdout.slice(start));
}

describe('CLI for Microsoft 365 against --throttle and fault rules', () => {
  // Logged in (in useM365's before) while nothing is throttled.
  const cli = useM365(ALICE);
  const site = () => cli.server.site('/sites/dev');

  /** POST /_spemu/faults as Alice (a site owner): what the test suite sets at run time. */
  async function setFaults(body: object): Promise<void> {
    const r = await tlsRequest(`${cli.server.url}/_spemu/faults`, {
      method: 'POST', ca: cli.ca, body: JSON.stringify(body),
      headers: { Authorization: `Basic ${Buffer.from(`${ALICE}:alice-demo-pass`).toString('base64')}`, 'Content-Type': 'application/json' },
    });
    assert.equal(r.status, 200, r.text);
  }

  it('--throttle: the second request of a command gets 429 with Retry-After; the CLI waits that long, retries and succeeds', async () => {
    // One request per 2 s for Alice. `listitem list --pageSize 4 --pageNumber 1` sends two GETs
    // back to back (the page's last Id, then the page): the second is over the budget.
    await setFaults({ throttle: 'user-requests=1/2s' });
    try {
      const run = await cli.runTimed(['spo', 'listitem', 'list', '--webUrl', site(), '--listTitle', 'Tasks', '--fields', 'Id,Title',
        '--pageSize', '4', '--pageNumber', '1', '--output', 'json', '--debug']);
      assert.equal(run.code, 0, run.stderr.map((l) => l.text).join('\n'));
      assert.deepEqual(result(run.stdout).map((i: { Id: number }) => i.Id), [5, 6, 7, 8], 'the second page of four');

      const sharepoint = wireEvents(run.stderr).filter((e) => e.url.includes('/_api/'));
      const throttled = sharepoint.findIndex((e) => e.kind === 'answer' && e.status === 429);
      assert.ok(throttled > 0, `a 429 was answered: ${JSON.stringify(sharepoint)}`);
      const answer = sharepoint[throttled]!;
      assert.match(answer.retryAfter ?? '', /^[12]$/, 'whole seconds, within the 2 s window');
      const retry = sharepoint[throttled + 1]!;
      assert.equal(retry.kind, 'request');
      assert.equal(retry.url, answer.url, 'the same request again');
      const waited = retry.at - answer.at;
      assert.ok(waited >= Number(answer.retryAfter) * 1000 - 50, `retried after ${waited} ms; Retry-After was ${answer.retryAfter} s`);
      const last = sharepoint.at(-1)!;
      assert.equal(last.kind, 'answer');
      assert.equal(last.status, 200);
      assert.equal(last.url, answer.url);
    } finally {
      await setFaults({ throttle: null });
    }
  });

  it('a fault rule answering 503 with Retry-After: the CLI retries as for a 429, with no limit on the retries', async () => {
    // Every items read answers 503 (SharePoint's server-busy error) with Retry-After: 1. The CLI
    // never gives up: the test stops it after its fourth attempt.
    await setFaults({ seed: 1, rules: [{ name: 'busy items', method: 'GET', path: '*/_api/web/lists/getByTitle(*)/items', error: 503, retryAfter: 1 }] });
    try {
      const attempts = (lines: Line[]) => wireEvents(lines).filter((e) => e.kind === 'answer' && e.status === 503).length;
      const run = await cli.runTimed(['spo', 'listitem', 'list', '--webUrl', site(), '--listTitle', 'Tasks', '--fields', 'Id,Title', '--output', 'json', '--debug'],
        (lines) => attempts(lines) >= 4, 60_000);
      assert.ok(run.killed, `the CLI was still retrying (exit ${run.code})`);
      const items = wireEvents(run.stderr).filter((e) => e.url.includes('/items'));
      const answers = items.filter((e) => e.kind === 'answer');
      assert.ok(answers.length >= 4 && answers.every((a) => a.status === 503 && a.retryAfter === '1'), JSON.stringify(answers));
      // Each retry waited the second Retry-After asked for.
      for (let i = 0; i < items.length - 1; i++) {
        if (items[i]!.kind === 'answer' && items[i + 1]!.kind === 'request') {
          assert.ok(items[i + 1]!.at - items[i]!.at >= 950, `retry ${i} after ${items[i + 1]!.at - items[i]!.at} ms`);
        }
      }
    } finally {
      await setFaults({ seed: 1, rules: [] });
    }
  });

  it('a 504 is not retried: the command fails at once with SharePoint\'s message', async () => {
    await setFaults({ seed: 1, rules: [{ name: 'gateway', method: 'GET', path: '*/_api/web/lists/getByTitle(*)/items', error: 504 }] });
    try {
      const run = await cli.runTimed(['spo', 'listitem', 'list', '--webUrl', site(), '--listTitle', 'Tasks', '--fields', 'Id,Title', '--output', 'json', '--debug'],
        undefined, 60_000);
      assert.equal(run.killed, false);
      assert.notEqual(run.code, 0);
      const items = wireEvents(run.stderr).filter((e) => e.url.includes('/items'));
      assert.deepEqual(items.map((e) => [e.kind, e.status]), [['request', undefined], ['answer', 504]], 'one attempt');
      assert.match(run.stderr.map((l) => l.text).join('\n'), /Error: The operation has timed out\./);
    } finally {
      await setFaults({ seed: 1, rules: [] });
    }
  });
});
