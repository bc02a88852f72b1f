// List webhook settings: the --webhook-* flags and variables, their defaults (SharePoint's
// policy), and which notification URLs the --webhook-allow patterns let through.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readCommandLine } from '../../src/cli/options.ts';
import { ConfigError, resolveOptions } from '../../src/config.ts';
import { allowedBy, checkNotificationUrl, loggableUrl } from '../../src/services/webhooks/url-policy.ts';

describe('--webhook-* flags', () => {
  it('default to SharePoint\'s policy: 60 s delay, 5 retries 5 minutes apart, 5 s timeout, any destination', () => {
    const { webhooks } = resolveOptions({});
    assert.deepEqual({ ...webhooks, maxResponseBytes: undefined },
      { delayMs: 60_000, retries: 5, retryIntervalMs: 300_000, timeoutMs: 5_000, allow: [], maxResponseBytes: undefined });
  });

  it('read times with units, repeated --webhook-allow, and SPEMU_WEBHOOK_* variables', () => {
    const { options } = readCommandLine(['--webhook-delay', '0', '--webhook-retries', '2', '--webhook-retry-interval', '90s',
      '--webhook-timeout', '500ms', '--webhook-allow', 'hooks.example.com', '--webhook-allow', '*.azurewebsites.net'], {});
    assert.deepEqual([options.webhookDelay, options.webhookRetries, options.webhookRetryInterval, options.webhookTimeout, options.webhookAllow],
      [0, 2, 90_000, 500, ['hooks.example.com', '*.azurewebsites.net']]);
    const env = readCommandLine([], { SPEMU_WEBHOOK_DELAY: '5m', SPEMU_WEBHOOK_ALLOW: 'a.example, b.example:8443' }).options;
    assert.deepEqual([env.webhookDelay, env.webhookAllow], [300_000, ['a.example', 'b.example:8443']]);
    assert.deepEqual(readCommandLine(['--webhook-allow', 'c.example'], { SPEMU_WEBHOOK_ALLOW: 'a.example' }).options.webhookAllow, ['c.example']);
  });

  it('refuse what is no time or count', () => {
    assert.throws(() => readCommandLine(['--webhook-delay', 'soon'], {}), ConfigError);
    assert.throws(() => readCommandLine(['--webhook-retries', '-1'], {}), ConfigError);
    assert.throws(() => resolveOptions({ webhookTimeout: 0 }), ConfigError);
  });
});

describe('notification URL policy', () => {
  const url = (text: string) => new URL(text);

  it('takes only absolute http(s) URLs without credentials', () => {
    assert.equal(checkNotificationUrl('https://hooks.example.com/x?code=1', []).ok, true);
    for (const bad of ['file:///etc/passwd', 'ftp://a/b', 'javascript:alert(1)', 'http://u:p@a.example/', '/relative', '']) {
      assert.equal(checkNotificationUrl(bad, []).ok, false, bad);
    }
  });

  it('matches host, host:port, wildcard and URL-prefix patterns', () => {
    assert.equal(allowedBy(url('https://hooks.example.com/a'), 'hooks.example.com'), true);
    assert.equal(allowedBy(url('https://HOOKS.example.com/a'), 'hooks.example.com'), true);
    assert.equal(allowedBy(url('https://evil.com/hooks.example.com'), 'hooks.example.com'), false);
    assert.equal(allowedBy(url('https://hooks.example.com.evil.com/'), 'hooks.example.com'), false);
    assert.equal(allowedBy(url('https://fn.azurewebsites.net/api'), '*.azurewebsites.net'), true);
    assert.equal(allowedBy(url('https://azurewebsites.net.evil/api'), '*.azurewebsites.net'), false);
    assert.equal(allowedBy(url('http://127.0.0.1:8080/'), '127.0.0.1:8080'), true);
    assert.equal(allowedBy(url('http://127.0.0.1:8081/'), '127.0.0.1:8080'), false);
    assert.equal(allowedBy(url('https://h.example/'), 'h.example:443'), true);
    assert.equal(allowedBy(url('https://h.example/api/hook?x=1'), 'https://h.example/api/*'), true);
    assert.equal(allowedBy(url('http://h.example/api/hook'), 'https://h.example/api/*'), false);
    assert.equal(allowedBy(url('https://h.example/other'), 'https://h.example/api/*'), false);
    assert.equal(checkNotificationUrl('https://other.example/', ['h.example']).ok, false);
  });

  it('logs URLs without their query (receivers put keys there)', () => {
    assert.equal(loggableUrl('https://fn.example/api/hook?code=SECRET#x'), 'https://fn.example/api/hook');
  });
});
