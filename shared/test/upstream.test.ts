import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TimeoutError, ToolError } from '../src/server/errors.js';
import {
  BufferedResponse,
  ConcurrencyLimit,
  DEFAULT_HTTP_POLICY,
  decideRetry,
  encodePath,
  encodeSegment,
  GITLAB_HOOKS,
  GOOGLE_HOOKS,
  HttpClient,
  type HttpClientOptions,
  HttpError,
  IntervalGate,
  isLoopbackHost,
  joinUrl,
  nodeAttempt,
  parseBaseUrl,
  ResponseTooLarge,
  redact,
  redactCredentials,
  redirectInit,
  retryHint,
  SLACK_HOOKS,
  summarizeHttpFailure,
  timedAttempt,
  userAgent,
} from '../src/upstream/index.js';

describe('parseBaseUrl', () => {
  it('accepts https anywhere and http only on loopback; strips the trailing slash', () => {
    expect(parseBaseUrl('https://ghe.example.com/api/v3/').href).toBe('https://ghe.example.com/api/v3');
    expect(parseBaseUrl('http://127.0.0.1:8080').origin).toBe('http://127.0.0.1:8080');
    expect(parseBaseUrl('http://localhost:1/x').pathname).toBe('/x');
    expect(parseBaseUrl('http://[::1]:9/').hostname).toBe('[::1]');
    expect(isLoopbackHost('127.8.9.10')).toBe(true);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
  });

  it('refuses plain http to remote hosts, other schemes, credentials, queries and fragments', () => {
    expect(() => parseBaseUrl('http://ghe.example.com', 'GITHUB_API_URL')).toThrow(
      /GITHUB_API_URL: plain http is allowed only for loopback/,
    );
    expect(() => parseBaseUrl('http://127.0.0.1.evil.com')).toThrow(/plain http/);
    expect(() => parseBaseUrl('ftp://x')).toThrow(/scheme must be https/);
    expect(() => parseBaseUrl('https://user:pw@x')).toThrow(/credentials/);
    expect(() => parseBaseUrl('https://x/?a=1')).toThrow(/query or fragment/);
    expect(() => parseBaseUrl('https://x/#f')).toThrow(/query or fragment/);
    expect(() => parseBaseUrl('not a url')).toThrow(/not an absolute URL/);
  });

  it('joinUrl keeps the base path prefix', () => {
    expect(joinUrl(parseBaseUrl('https://h/api/v3'), '/repos/a/b').href).toBe('https://h/api/v3/repos/a/b');
  });
});

describe('path encoding (GH-01)', () => {
  it('encodes each segment, keeps "/" and refuses dot segments', () => {
    expect(encodePath('dir with space/a#b?.md', 'path')).toBe('dir%20with%20space/a%23b%3F.md');
    expect(encodePath('/README.md', 'path')).toBe('README.md');
    expect(encodePath('', 'path')).toBe('');
    expect(encodePath("it's (x)*!", 'path')).toBe('it%27s%20%28x%29%2A%21');
    expect(() => encodePath('../../../user', 'path')).toThrow(
      /path: "\." and "\.\." segments are not allowed/,
    );
    expect(() => encodePath('a/./b', 'path')).toThrow(/not allowed/);
    expect(() => encodePath('a//b', 'path')).toThrow(/empty path segment/);
    expect(() => encodePath('a\nb', 'path')).toThrow(/control characters/);
  });

  it('single segments refuse "/" and dots', () => {
    expect(encodeSegment('main&per_page=100', 'branch')).toBe('main%26per_page%3D100');
    expect(() => encodeSegment('a/b', 'owner')).toThrow(/owner: must be a single name/);
    expect(() => encodeSegment('..', 'repo')).toThrow(/repo:/);
    expect(() => encodeSegment('', 'repo')).toThrow(/repo: must not be empty/);
  });
});

describe('retry policy', () => {
  const now = 1_700_000_000_000;
  const base = { method: 'GET', retries: 0, elapsedMs: 0, now };

  it('reads Retry-After (seconds and HTTP-date), x-ratelimit-reset and RateLimit-Reset', () => {
    expect(retryHint({ 'retry-after': '3' }, now)).toEqual({ at: now + 3000, source: 'retry-after' });
    expect(retryHint({ 'Retry-After': new Date(now + 5000).toUTCString() }, now)?.at).toBe(now + 5000);
    expect(
      retryHint({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 7) }, now),
    ).toEqual({
      at: now + 7000,
      source: 'x-ratelimit-reset',
    });
    // A reset time alone, with quota left, is no hint.
    expect(retryHint({ 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': '1' }, now)).toBeUndefined();
    expect(retryHint(new Headers({ 'ratelimit-remaining': '0', 'ratelimit-reset': '2' }), now)?.at).toBe(
      now + 2000,
    );
  });

  it('waits what a 429/403 asks when it fits the budget, else gives up with the retry time', () => {
    expect(decideRetry({ ...base, status: 429, headers: { 'retry-after': '2' } })).toMatchObject({
      retry: true,
      delayMs: 2000,
    });
    expect(
      decideRetry({
        ...base,
        status: 403,
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 1) },
      }),
    ).toMatchObject({ retry: true, delayMs: 1000 });
    const late = decideRetry({ ...base, status: 429, headers: { 'retry-after': '3600' } });
    expect(late).toMatchObject({ retry: false, retryAt: now + 3_600_000 });
    expect(decideRetry({ ...base, status: 429, retries: DEFAULT_HTTP_POLICY.maxRetries })).toMatchObject({
      retry: false,
    });
    // A plain 403 (permissions) is final.
    expect(decideRetry({ ...base, status: 403 })).toMatchObject({ retry: false });
  });

  it('retries server errors with backoff only for idempotent methods', () => {
    expect(decideRetry({ ...base, status: 502 })).toMatchObject({ retry: true, delayMs: 500 });
    expect(decideRetry({ ...base, status: 503, retries: 1 })).toMatchObject({ retry: true, delayMs: 1000 });
    expect(decideRetry({ ...base, method: 'POST', status: 502 })).toMatchObject({ retry: false });
    expect(decideRetry({ ...base, status: undefined })).toMatchObject({ retry: true });
    expect(decideRetry({ ...base, status: 404 })).toMatchObject({ retry: false });
    expect(decideRetry({ ...base, status: 502, elapsedMs: DEFAULT_HTTP_POLICY.budgetMs })).toMatchObject({
      retry: false,
    });
  });
});

describe('retry policy: vendor readings', () => {
  const now = 1_700_000_000_000;
  it('GitLab’s RateLimit-Reset in epoch seconds is read as a time, not a 54-year delta', () => {
    const headers = { 'ratelimit-remaining': '0', 'ratelimit-reset': String(now / 1000 + 30) };
    expect(retryHint(headers, now)).toEqual({ at: now + 30_000, source: 'ratelimit-reset' });
  });

  it('a vendor’s rateLimited reading turns a bare 403 into a backoff retry, also for POST', () => {
    const attempt = { method: 'POST', status: 403, retries: 0, elapsedMs: 0, now };
    expect(decideRetry(attempt)).toMatchObject({ retry: false });
    expect(decideRetry({ ...attempt, rateLimited: true })).toMatchObject({ retry: true, delayMs: 500 });
    expect(
      decideRetry({ ...attempt, rateLimited: true, elapsedMs: DEFAULT_HTTP_POLICY.budgetMs - 100 }),
    ).toMatchObject({ retry: false, retryAt: now + 500 });
  });
});

describe('error summaries', () => {
  it('a token cut by the message bound is redacted before the cut (adversarial review)', () => {
    const message = `${'x'.repeat(290)}TESTTOKEN123 trailing`;
    const text = summarizeHttpFailure({ service: 'API', status: 500, message, details: [message] }, [
      'TESTTOKEN123',
    ]);
    expect(text).not.toMatch(/TESTTOK/);
  });

  it('a retry time past what a Date holds still makes a summary (no "Invalid time value")', () => {
    for (const headers of [
      { 'retry-after': '99999999999999999999999' },
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '99999999999999999999' },
      { 'ratelimit-remaining': '0', 'ratelimit-reset': '99999999999999999999' },
    ]) {
      const text = summarizeHttpFailure({ service: 'API', status: 429, headers });
      expect(text).toMatch(/rate limited: too many requests\. Retry after \+275760-09-13T00:00:00\.000Z/);
      expect(decideRetry({ method: 'GET', status: 429, headers, retries: 0, elapsedMs: 0 })).toMatchObject({
        retry: false,
      });
    }
  });

  it('names status and meaning, when to retry, and never the token', () => {
    const now = 1_700_000_000_000;
    const text = summarizeHttpFailure(
      {
        service: 'GitHub API',
        status: 403,
        method: 'get',
        path: '/repos/a/b',
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 120) },
        message: 'API rate limit exceeded for token TESTTOKEN123',
        now,
      },
      ['TESTTOKEN123'],
    );
    expect(text).toBe(
      'GitHub API 403 on GET /repos/a/b: rate limited: too many requests. Upstream says: "API rate limit exceeded for token [redacted]". ' +
        `Retry after ${new Date(now + 120_000).toISOString()} (in 2 min, from x-ratelimit-reset).`,
    );
    const notFound = summarizeHttpFailure({ service: 'X', status: 404, hints: ['Token scopes: repo.'] });
    expect(notFound).toMatch(/404: not found: it does not exist, or the token may not see it/);
    expect(notFound).toMatch(/Token scopes: repo\.$/);
  });

  it('redacts bearer headers and well-known token shapes even when not configured', () => {
    expect(redact('authorization: Bearer abcdefghijklmnop', [])).toBe('authorization: Bearer [redacted]');
    expect(redact(`x ghp_${'a'.repeat(36)} y`, [])).toBe('x [redacted] y');
  });

  it('redacts OAuth token JSON fields and Google token shapes (a refreshed token in a library debug line)', () => {
    expect(redact('response {"access_token":"abc\\"def","expires_in":3599,"refresh_token": "r"}', [])).toBe(
      'response {"access_token":"[redacted]","expires_in":3599,"refresh_token": "[redacted]"}',
    );
    expect(redact('got ya29.a0AfB_byC-1234567890 and 1//0gAbCdEfGhIjKlMnOpQrStUv', [])).toBe(
      'got [redacted] and [redacted]',
    );
    expect(redactCredentials('warn: no token configured; Authorization: Bearer abcdefghijkl', [])).toBe(
      'warn: no token configured; Authorization: Bearer [redacted]',
    );
  });
});

describe('pacing', () => {
  it('IntervalGate spaces starts; ConcurrencyLimit caps parallel tasks', async () => {
    const gate = new IntervalGate(60);
    const t0 = Date.now();
    await Promise.all([gate.pass(), gate.pass(), gate.pass()]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);

    const limit = new ConcurrencyLimit(2);
    let active = 0;
    let peak = 0;
    const task = async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 10));
      active--;
    };
    await Promise.all(Array.from({ length: 7 }, () => limit.run(task)));
    expect(peak).toBe(2);
  });

  it('an abort while waiting rejects promptly', async () => {
    const gate = new IntervalGate(10_000);
    await gate.pass();
    const controller = new AbortController();
    const waiting = gate.pass(controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
  });
});

describe('HttpClient against a local server', () => {
  type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
  let server: Server;
  let base: URL;
  let handler: Handler = () => {};
  const seen: { method?: string; url?: string; headers: IncomingMessage['headers'] }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers });
        handler(req, res, body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = parseBaseUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api`);
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const client = (policy = {}, extra: Partial<HttpClientOptions> = {}) =>
    new HttpClient({
      service: 'Test API',
      baseUrl: base,
      userAgent: userAgent('test', '1.0.0'),
      headers: { authorization: 'Bearer TESTTOKEN123' },
      secrets: ['TESTTOKEN123'],
      policy: { minWriteIntervalMs: 0, minSearchIntervalMs: 0, backoffBaseMs: 10, ...policy },
      ...extra,
    });
  const json = (res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(data));
  };

  it('sends the path, query (encoded once), body, user agent and auth; parses JSON', async () => {
    seen.length = 0;
    handler = (_req, res, body) => json(res, 201, { echo: JSON.parse(body) });
    const result = await client().request<{ echo: unknown }>({
      method: 'POST',
      path: `/repos/${encodeSegment('a b', 'owner')}/x`,
      query: { ref: 'main&per_page=100', labels: ['x', 'y'], skip: undefined },
      body: { title: 't' },
    });
    expect(result.status).toBe(201);
    expect(result.data).toEqual({ echo: { title: 't' } });
    expect(seen[0]?.url).toBe('/api/repos/a%20b/x?ref=main%26per_page%3D100&labels=x&labels=y');
    expect(seen[0]?.headers['user-agent']).toMatch(/^refmcp-test\/1\.0\.0 /);
    expect(seen[0]?.headers.authorization).toBe('Bearer TESTTOKEN123');
  });

  it('retries a 429 after Retry-After, then succeeds', async () => {
    seen.length = 0;
    let calls = 0;
    handler = (_req, res) =>
      calls++ === 0
        ? json(res, 429, { message: 'slow down' }, { 'retry-after': '1' })
        : json(res, 200, { ok: true });
    const t0 = Date.now();
    const result = await client().request({ path: '/x' });
    expect(result.data).toEqual({ ok: true });
    expect(seen).toHaveLength(2);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  });

  it('gives up at once on a long rate limit, saying when to retry, without the token', async () => {
    seen.length = 0;
    handler = (_req, res) => json(res, 429, { message: 'limit for TESTTOKEN123' }, { 'retry-after': '3600' });
    const error = (await client()
      .request({ path: '/x' })
      .catch((e: unknown) => e)) as HttpError;
    // Answered from the one refusal: no retry after any wait, however short.
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(429);
    expect(error.message).toMatch(
      /Test API 429 on GET \/x: rate limited.*Retry after .* \(in 60 min, from retry-after\)/,
    );
    expect(error.message).not.toContain('TESTTOKEN123');
  });

  it('retries a 502 for GET but not for POST', async () => {
    seen.length = 0;
    handler = (_req, res) => json(res, 502, { message: 'bad gateway' });
    await expect(client().request({ path: '/x' })).rejects.toMatchObject({ status: 502 });
    expect(seen).toHaveLength(1 + DEFAULT_HTTP_POLICY.maxRetries);
    seen.length = 0;
    await expect(client().request({ method: 'POST', path: '/x', body: {} })).rejects.toMatchObject({
      status: 502,
    });
    expect(seen).toHaveLength(1);
  });

  it('times out a hung response and names the timeout', async () => {
    handler = () => {}; // never answers
    const error = await client({ timeoutMs: 200 })
      .request({ path: '/hang' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('Test API GET /api/hang timed out after 200 ms');
  });

  it('a network failure names the base URL problem, not a stack', async () => {
    const dead = new HttpClient({
      service: 'Dead API',
      baseUrl: parseBaseUrl('http://127.0.0.1:1'),
      userAgent: 'x',
      policy: { maxRetries: 0 },
    });
    await expect(dead.request({ path: '/x' })).rejects.toThrow(
      /Dead API: GET \/x failed before any response .*check the base URL/,
    );
  });

  it('Slack: a 200 {ok:false,error} is a failure naming the error, not retried; a form body is sent as such', async () => {
    seen.length = 0;
    let sent = '';
    handler = (_req, res, body) => {
      sent = body;
      json(res, 200, {
        ok: false,
        error: 'channel_not_found',
        response_metadata: { messages: ['[ERROR] channel C123 is archived'] },
      });
    };
    const error = (await client({}, { service: 'Slack API', hooks: SLACK_HOOKS })
      .request({ method: 'POST', path: '/chat.postMessage', body: new URLSearchParams({ channel: 'C123' }) })
      .catch((e: unknown) => e)) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(200);
    expect(error.reason).toBe('channel_not_found');
    expect(error.message).toBe(
      'Slack API 200 (channel_not_found) on POST /chat.postMessage: request failed. Details: [ERROR] channel C123 is archived.',
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent).toBe('channel=C123');
  });

  it('Slack: a 429 (per-method tier) is waited out per Retry-After even for POST; ok:true passes', async () => {
    seen.length = 0;
    let calls = 0;
    handler = (_req, res) =>
      calls++ === 0
        ? json(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': '1' })
        : json(res, 200, { ok: true, channels: [] });
    const result = await client({}, { service: 'Slack API', hooks: SLACK_HOOKS }).request({
      method: 'POST',
      path: '/conversations.list',
    });
    expect(result.data).toEqual({ ok: true, channels: [] });
    expect(seen).toHaveLength(2);
  });

  it('Google: a 403 userRateLimitExceeded is a rate limit, retried with backoff within the budget', async () => {
    seen.length = 0;
    let calls = 0;
    const limited = {
      error: {
        code: 403,
        message: 'User Rate Limit Exceeded',
        errors: [
          { domain: 'usageLimits', reason: 'userRateLimitExceeded', message: 'User Rate Limit Exceeded' },
        ],
      },
    };
    handler = (_req, res) => (calls++ < 2 ? json(res, 403, limited) : json(res, 200, { files: [] }));
    const result = await client({}, { service: 'Google Drive API', hooks: GOOGLE_HOOKS }).request({
      path: '/files',
    });
    expect(result.data).toEqual({ files: [] });
    expect(seen).toHaveLength(3);

    // Past the retries it gives up, saying rate limited and the reason (not "forbidden").
    seen.length = 0;
    handler = (_req, res) => json(res, 403, limited);
    const error = (await client({}, { service: 'Google Drive API', hooks: GOOGLE_HOOKS })
      .request({ path: '/files' })
      .catch((e: unknown) => e)) as HttpError;
    expect(seen).toHaveLength(1 + DEFAULT_HTTP_POLICY.maxRetries);
    expect(error.reason).toBe('userRateLimitExceeded');
    expect(error.message).toMatch(
      /^Google Drive API 403 \(userRateLimitExceeded\) on GET \/files: rate limited: too many requests\. Upstream says: "User Rate Limit Exceeded"\. Retry later/,
    );
  });

  it('Google: a 403 for permissions stays final and names its reason', async () => {
    seen.length = 0;
    handler = (_req, res) =>
      json(res, 403, {
        error: {
          code: 403,
          message: 'Insufficient Permission',
          errors: [{ reason: 'insufficientPermissions', message: 'Insufficient Permission' }],
        },
      });
    const error = (await client({}, { service: 'Google Drive API', hooks: GOOGLE_HOOKS })
      .request({ path: '/files/x' })
      .catch((e: unknown) => e)) as HttpError;
    expect(seen).toHaveLength(1);
    expect(error.message).toMatch(
      /^Google Drive API 403 \(insufficientPermissions\) on GET \/files\/x: forbidden/,
    );
  });

  it('GitLab: {message} strings, validation maps and OAuth {error} are summarised', async () => {
    const gitlab = () => client({}, { service: 'GitLab API', hooks: GITLAB_HOOKS });
    handler = (_req, res) => json(res, 404, { message: '404 Project Not Found' });
    await expect(gitlab().request({ path: '/projects/1' })).rejects.toThrow(
      'GitLab API 404 on GET /projects/1: not found: it does not exist, or the token may not see it (APIs answer 404 rather than 403 to hide private resources). Upstream says: "404 Project Not Found".',
    );
    handler = (_req, res) =>
      json(res, 400, { message: { title: ["can't be blank"], labels: ['is invalid'] } });
    await expect(gitlab().request({ method: 'POST', path: '/projects/1/issues', body: {} })).rejects.toThrow(
      /Upstream says: "validation failed"\. Details: title can't be blank; labels is invalid\./,
    );
    handler = (_req, res) =>
      json(res, 403, {
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges.',
      });
    const error = (await gitlab()
      .request({ path: '/projects' })
      .catch((e: unknown) => e)) as HttpError;
    expect(error.reason).toBe('insufficient_scope');
    expect(error.message).toMatch(
      /^GitLab API 403 \(insufficient_scope\) on GET \/projects: forbidden.*Upstream says: "The request requires higher privileges\."/,
    );
  });

  it('bytes and text bodies; a bytes body over the cap is refused and not retried', async () => {
    const payload = Buffer.alloc(4096, 7);
    seen.length = 0;
    handler = (req, res) => {
      // Chunked (no Content-Length) unless asked, so the cap is checked while reading too.
      const length = req.url?.includes('declared') ? { 'content-length': String(payload.length) } : {};
      res.writeHead(200, { 'content-type': 'application/octet-stream', ...length });
      res.end(payload);
    };
    const small = await client({}, { maxResponseBytes: 8192 }).request<Buffer>({
      path: '/blob',
      responseType: 'bytes',
    });
    expect(Buffer.isBuffer(small.data) && small.data.equals(payload)).toBe(true);
    for (const path of ['/blob', '/blob?declared=1']) {
      seen.length = 0;
      const error = await client({}, { maxResponseBytes: 1024 })
        .request({ path, responseType: 'bytes' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseTooLarge);
      expect((error as Error).message).toMatch(
        /^Test API GET \/api\/blob: the response is .*over this server's 1024-byte limit/,
      );
      expect(seen).toHaveLength(1);
    }
    handler = (_req, res) => json(res, 200, { a: 1 });
    expect((await client().request({ path: '/t', responseType: 'text' })).data).toBe('{"a":1}');
  });

  it('a compressed body is capped on what it decompresses to, whatever length it declares', async () => {
    const inflated = Buffer.alloc(64 * 1024, 'a');
    const packed = gzipSync(inflated);
    handler = (_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-encoding': 'gzip',
        'content-length': String(packed.length),
      });
      res.end(packed);
    };
    expect(packed.length).toBeLessThan(1024);
    const error = await client({}, { maxResponseBytes: 1024 })
      .request({ path: '/bomb', responseType: 'bytes' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLarge);
    const whole = await client({}, { maxResponseBytes: 128 * 1024 }).request<Buffer>({
      path: '/bomb',
      responseType: 'bytes',
    });
    expect(whole.data.equals(inflated)).toBe(true);
  });

  it('a body with a declared length is read whole; text drops a leading BOM as fetch does', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"é"}')]);
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.end(body);
    };
    expect((await client().request({ path: '/bom' })).data).toEqual({ a: 'é' });
    expect((await client().request({ path: '/bom', responseType: 'text' })).data).toBe('{"a":"é"}');
  });

  it('timedAttempt: a BufferedResponse reads status, headers and body once; a caller abort is its reason', async () => {
    handler = (_req, res) => json(res, 404, { message: 'Not Found' }, { 'x-one': '1' });
    const attempt = timedAttempt('Test API', 5000, 1024);
    const response = new BufferedResponse(await attempt(new URL(`${base.href}/missing`)));
    expect([response.status, response.ok, response.headers.get('x-one')]).toEqual([404, false, '1']);
    expect(await response.json()).toEqual({ message: 'Not Found' });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(/already been read/);
    const again = new BufferedResponse(await attempt(`${base.href}/missing`));
    expect(await new Response(again.body).text()).toBe('{"message":"Not Found"}');

    handler = () => {}; // never answers
    seen.length = 0;
    const controller = new AbortController();
    const pending = attempt(`${base.href}/hang`, { signal: controller.signal });
    pending.catch(() => {});
    // Aborted once the request is in (so that no late arrival lands in the next test).
    for (let i = 0; i < 600 && !seen.length; i++) await new Promise((r) => setTimeout(r, 50));
    controller.abort(new Error('client cancelled'));
    await expect(pending).rejects.toThrow('client cancelled');
  });

  it('GETs share one kept-alive connection; a redirect is followed (through fetch)', async () => {
    let connections = 0;
    const count = () => connections++;
    server.on('connection', count);
    try {
      handler = (req, res) => {
        if (req.url !== '/api/old') return json(res, 200, { at: req.url });
        res.writeHead(302, { location: '/api/new' });
        res.end();
      };
      const c = client();
      for (let i = 0; i < 10; i++)
        expect((await c.request({ path: '/new' })).data).toEqual({ at: '/api/new' });
      // Kept alive: the second request may start before the first one's socket is back in the pool.
      expect(connections).toBeLessThanOrEqual(2);
      seen.length = 0;
      expect((await c.request({ path: '/old' })).data).toEqual({ at: '/api/new' });
      // The redirect is not asked twice: fetch goes on from its Location.
      expect(seen.map((q) => q.url)).toEqual(['/api/old', '/api/new']);
      const head = await c.request({ method: 'HEAD', path: '/new' });
      expect([head.status, head.data]).toEqual([200, '']);
    } finally {
      server.off('connection', count);
    }
  });

  it('nodeAttempt sends headers given as a Headers instance', async () => {
    handler = (_req, res) => json(res, 200, {});
    seen.length = 0;
    const viaFetch = timedAttempt('Test API', 5000, 1024);
    const attempt = nodeAttempt('Test API', 5000, 1024, viaFetch);
    const answer = await attempt(new URL(`${base.href}/h`), {
      headers: new Headers({ authorization: 'Bearer H' }),
    });
    expect(answer.status).toBe(200);
    expect(seen[0]?.headers.authorization).toBe('Bearer H');
  });

  it('redirectInit: another origin drops generic and own credential headers; 303 turns a POST into a GET', () => {
    const from = new URL('https://gitlab.example/api/v4/x');
    const strip = new Set(['authorization', 'private-token', 'x-own-key']);
    const init = {
      method: 'POST',
      body: '{}',
      headers: {
        'private-token': 'T',
        'X-Own-Key': 'K',
        accept: 'application/json',
        'content-type': 'application/json',
      },
    };
    const same = redirectInit(from, new URL('https://gitlab.example/api/v4/y'), 307, init, strip);
    expect([...new Headers(same.headers).keys()].sort()).toEqual([
      'accept',
      'content-type',
      'private-token',
      'x-own-key',
    ]);
    expect([same.method, same.body]).toEqual(['POST', '{}']);
    const other = redirectInit(from, new URL('https://storage.example/blob'), 303, init, strip);
    expect([...new Headers(other.headers).keys()]).toEqual(['accept']);
    expect([other.method, other.body]).toEqual(['GET', undefined]);
    // Another scheme or port is another origin too.
    const port = redirectInit(
      from,
      new URL('https://gitlab.example:8443/api/v4/y'),
      302,
      { headers: init.headers },
      strip,
    );
    expect(new Headers(port.headers).has('private-token')).toBe(false);
  });

  describe('redirects to another origin (hop by hop, credentials dropped)', () => {
    let other: Server;
    let otherBase: string;
    let otherHandler: Handler = (_req, res) => json(res, 200, { stolen: false });
    const otherSeen: { method?: string; url?: string; headers: IncomingMessage['headers'] }[] = [];
    beforeAll(async () => {
      other = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => {
          otherSeen.push({ method: req.method, url: req.url, headers: req.headers });
          otherHandler(req, res, body);
        });
      });
      await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
      otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => other.close(() => r())));
    const credentialNames = [
      'authorization',
      'x-subscription-token',
      'private-token',
      'x-vendor-key',
      'cookie',
    ];
    const carried = (headers: IncomingMessage['headers']) => credentialNames.filter((n) => n in headers);

    it('a custom key header (Brave X-Subscription-Token) and a client-declared one do not follow a 302', async () => {
      seen.length = 0;
      otherSeen.length = 0;
      otherHandler = (_req, res) => json(res, 200, { at: 'other' });
      handler = (_req, res) => {
        res.writeHead(302, { location: `${otherBase}/steal` });
        res.end();
      };
      const c = client(
        {},
        {
          headers: { 'x-subscription-token': 'BRAVEKEY', 'x-vendor-key': 'VK', authorization: 'Bearer T' },
          credentialHeaders: ['X-Vendor-Key'],
        },
      );
      expect((await c.request({ path: '/res/v1/web/search' })).data).toEqual({ at: 'other' });
      expect(seen[0]?.headers['x-subscription-token']).toBe('BRAVEKEY');
      expect(otherSeen.map((q) => q.url)).toEqual(['/steal']);
      expect(carried(otherSeen[0]?.headers ?? {})).toEqual([]);
    });

    it('two hops (same origin, then another): the first keeps PRIVATE-TOKEN, the second gets none, nor does a hop back', async () => {
      seen.length = 0;
      otherSeen.length = 0;
      handler = (req, res) => {
        if (req.url === '/api/a') res.writeHead(301, { location: '/api/b' });
        else if (req.url === '/api/b') res.writeHead(302, { location: `${otherBase}/c` });
        else return json(res, 200, { at: req.url });
        res.end();
      };
      otherHandler = (_req, res) => {
        res.writeHead(307, { location: `${base.origin}/api/back` });
        res.end();
      };
      const c = client({}, { headers: { 'private-token': 'GLTOKEN' } });
      expect((await c.request({ path: '/a' })).data).toEqual({ at: '/api/back' });
      expect(seen.map((q) => [q.url, q.headers['private-token']])).toEqual([
        ['/api/a', 'GLTOKEN'],
        ['/api/b', 'GLTOKEN'],
        ['/api/back', undefined],
      ]);
      expect(carried(otherSeen[0]?.headers ?? {})).toEqual([]);
    });

    it('a POST (sent through fetch) redirected by 307 keeps method and body, not the token', async () => {
      seen.length = 0;
      otherSeen.length = 0;
      handler = (_req, res) => {
        res.writeHead(307, { location: `${otherBase}/post` });
        res.end();
      };
      otherHandler = (req, res, body) => json(res, 201, { method: req.method, body });
      const c = client({}, { headers: { 'private-token': 'GLTOKEN', authorization: 'Bearer T' } });
      const answer = await c.request({ method: 'POST', path: '/x', body: { a: 1 } });
      expect(answer.data).toEqual({ method: 'POST', body: '{"a":1}' });
      expect(seen[0]?.headers['private-token']).toBe('GLTOKEN');
      expect(carried(otherSeen[0]?.headers ?? {})).toEqual([]);
    });

    it("GitHub's path (nodeAttempt alone) drops Authorization across origins; a redirect loop ends with an error", async () => {
      otherSeen.length = 0;
      otherHandler = (_req, res) => json(res, 200, { at: 'other' });
      handler = (_req, res) => {
        res.writeHead(302, { location: `${otherBase}/x` });
        res.end();
      };
      const attempt = nodeAttempt('GitHub API', 5000, 1024, timedAttempt('GitHub API', 5000, 1024));
      const answer = await attempt(new URL(`${base.href}/repos`), { headers: { authorization: 'token GH' } });
      expect(answer.status).toBe(200);
      expect(carried(otherSeen[0]?.headers ?? {})).toEqual([]);
      handler = (_req, res) => {
        res.writeHead(302, { location: '/api/loop' });
        res.end();
      };
      seen.length = 0;
      await expect(attempt(new URL(`${base.href}/loop`), {})).rejects.toThrow(
        /redirected more than 20 times/,
      );
      expect(seen).toHaveLength(21);
      // redirect: 'manual' answers the 3xx itself.
      expect((await attempt(new URL(`${base.href}/loop`), { redirect: 'manual' })).status).toBe(302);
    });

    it('one --timeout bounds the whole redirect chain, and a chain that ends in an error is not retried', async () => {
      // A slow loop: every hop answers a 302 to itself after 300 ms, under a 1000 ms timeout. Each hop
      // timed alone (and the chain retried as a network failure) took 21 hops x 3 tries.
      seen.length = 0;
      handler = (_req, res) => {
        setTimeout(() => {
          res.writeHead(302, { location: '/api/slow' });
          res.end();
        }, 300);
      };
      const slow = await client({ timeoutMs: 1000 })
        .request({ path: '/slow' })
        .catch((e: unknown) => e);
      expect(slow).toBeInstanceOf(TimeoutError);
      expect((slow as Error).message).toMatch(/Test API GET \/api\/slow timed out after 1000 ms/);
      expect(seen.length).toBeLessThan(10);
      // Too many redirects: the same answer again, so one chain of 21 requests and no retry.
      handler = (_req, res) => {
        res.writeHead(302, { location: '/api/loop' });
        res.end();
      };
      for (const method of ['GET', 'PUT']) {
        seen.length = 0;
        const loop = await client({ timeoutMs: 30_000 })
          .request({ method, path: '/loop', read: true, ...(method === 'PUT' ? { body: {} } : {}) })
          .catch((e: unknown) => e);
        expect(loop).toBeInstanceOf(ToolError);
        expect((loop as Error).message).toMatch(/redirected more than 20 times/);
        expect(seen).toHaveLength(21);
      }
    });
  });

  it('a header value HTTP does not allow is a clear error naming the header, and nothing fires later', async () => {
    seen.length = 0;
    for (const token of ['KEY\u20ac', 'KEY\r\nx-injected: 1', 'KEY\u0000']) {
      const c = client({ timeoutMs: 50 }, { headers: { 'x-subscription-token': token } });
      for (const method of ['GET', 'POST']) {
        const error = await c
          .request({ method, path: '/x', body: method === 'POST' ? {} : undefined })
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ToolError);
        expect((error as Error).message).toMatch(
          /header "x-subscription-token" holds a character HTTP does not allow/,
        );
        expect((error as Error).message).not.toContain('KEY');
      }
    }
    expect(seen).toHaveLength(0);
    // No timer or abort listener is left behind to fire after the rejection (it used to call
    // destroy() on a request never made: an uncaught ReferenceError that ended the process).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const attempt = nodeAttempt('Test API', 50, 1024, timedAttempt('Test API', 50, 1024));
      const controller = new AbortController();
      await expect(
        attempt(new URL(`${base.href}/x`), {
          headers: { authorization: 'Bearer \u0100' },
          signal: controller.signal,
        }),
      ).rejects.toThrow(/header "authorization" holds a character/);
      expect(vi.getTimerCount()).toBe(0);
      vi.runAllTimers();
      controller.abort(new Error('cancelled'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('a POST is never retried after a 502 or a 503 with Retry-After (it may have taken effect)', async () => {
    for (const [status, headers] of [
      [502, {}],
      [503, { 'retry-after': '1' }],
    ] as const) {
      seen.length = 0;
      handler = (_req, res) => json(res, status, { message: 'upstream trouble' }, headers);
      await expect(
        client().request({ method: 'POST', path: '/issues', body: { title: 't' } }),
      ).rejects.toMatchObject({
        status,
      });
      expect(seen).toHaveLength(1);
    }
  });

  it('a write that failed with a 5xx says its outcome is unknown; a refused one (4xx) or a read does not', async () => {
    const unknown = /The outcome is unknown: the change may have been made/;
    handler = (_req, res) => json(res, 502, { message: 'upstream trouble' });
    await expect(client().request({ method: 'POST', path: '/issues', body: {} })).rejects.toThrow(unknown);
    await expect(client().request({ path: '/issues' })).rejects.not.toThrow(unknown);
    handler = (_req, res) => json(res, 422, { message: 'title is missing' });
    await expect(client().request({ method: 'POST', path: '/issues', body: {} })).rejects.not.toThrow(
      unknown,
    );
  });

  it('pathInterval spaces calls of one path (per-method tiers)', async () => {
    handler = (_req, res) => json(res, 200, { ok: true });
    const tiered = client(
      {},
      { hooks: SLACK_HOOKS, pathInterval: (_m, path) => (path === '/slow' ? 150 : undefined) },
    );
    const t0 = Date.now();
    await Promise.all([
      tiered.request({ path: '/slow' }),
      tiered.request({ path: '/slow' }),
      tiered.request({ path: '/fast' }),
    ]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });
});
