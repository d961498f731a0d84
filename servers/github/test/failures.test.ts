/**
 * Upstream failures: a private repository's 404 explains missing access and names the token's
 * scopes (GH-08); a 401 never echoes the token (ALL-03); rate limits are waited out within the
 * budget or reported with the retry time (GH-09); a hung call times out naming the timeout while
 * another call still answers (ALL-07); 5xx are retried for reads but never for creates; bad
 * GITHUB_API_URL values are refused at startup.
 */
import { spawnSync } from 'node:child_process';
import { callChecked, serverBin } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENE_TOKEN, startScene, startServer } from './support.js';

let gh: FakeGitHub;
beforeAll(async () => {
  ({ gh } = await startScene());
});
afterAll(() => gh.close());
const issue = { owner: 'acme', repo: 'demo', issue_number: 2 };

describe('GH-08 private repo 404', () => {
  it('GH-08 explains that 404 can mean missing access and names the token scopes, never the token', async () => {
    const conn = await startServer(gh);
    try {
      const r = await callChecked(conn, 'get_file_contents', {
        owner: 'acme',
        repo: 'private-notes',
        path: 'secrets.md',
      });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(
        /^GitHub API 404 on GET \/repos\/acme\/private-notes\/contents\/secrets\.md: not found: it does not exist, or the token may not see it/,
      );
      expect(r.text).toContain("The token's scopes: repo, read:org (x-oauth-scopes).");
      expect(r.text).not.toContain(SCENE_TOKEN);
      expect(conn.stderr()).not.toContain(SCENE_TOKEN);
    } finally {
      await conn.close();
    }
  }, 30_000);

  it('GH-08 a fine-grained token (no x-oauth-scopes) and no token at all are explained too', async () => {
    gh.scopes = '';
    let conn = await startServer(gh);
    try {
      const r = await callChecked(conn, 'get_issue', {
        owner: 'acme',
        repo: 'private-notes',
        issue_number: 1,
      });
      expect(r.text).toContain("The token's scopes: (none)");
    } finally {
      await conn.close();
      gh.scopes = 'repo, read:org';
    }
    conn = await startServer(gh, [], { env: { GITHUB_PERSONAL_ACCESS_TOKEN: '' } });
    try {
      const r = await callChecked(conn, 'get_issue', {
        owner: 'acme',
        repo: 'private-notes',
        issue_number: 1,
      });
      expect(r.text).toMatch(/No token is configured: only public data is visible/);
      expect(conn.stderr()).toMatch(/no GITHUB_PERSONAL_ACCESS_TOKEN: public data only/);
    } finally {
      await conn.close();
    }
  }, 30_000);

  it('GITHUB_TOKEN is read when GITHUB_PERSONAL_ACCESS_TOKEN is not set', async () => {
    const conn = await startServer(gh, [], {
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: '', GITHUB_TOKEN: SCENE_TOKEN },
    });
    try {
      expect((await callChecked(conn, 'get_me', {})).structuredContent).toMatchObject({ login: 'octo' });
    } finally {
      await conn.close();
    }
  });

  it('ALL-03 a 401 for a bad token says so and never echoes it', async () => {
    const conn = await startServer(gh, [], {
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_TESTTOKEN123wrongwrongwrongwrongwrong' },
    });
    try {
      const r = await callChecked(conn, 'get_me', {});
      expect(r.text).toMatch(
        /GitHub API 401 on GET \/user: authentication failed.*Check GITHUB_PERSONAL_ACCESS_TOKEN/,
      );
      expect(r.text + conn.stderr()).not.toMatch(/ghp_TESTTOKEN123/);
    } finally {
      await conn.close();
    }
  });
});

describe('GH-09 rate limit', () => {
  it('GH-09 a secondary rate limit (429 + retry-after: 1) is waited out and retried', async () => {
    const conn = await startServer(gh);
    try {
      gh.api.clearRequests();
      gh.api.inject({
        status: 429,
        headers: { 'retry-after': '1' },
        body: {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        },
        match: { path: '/repos/acme/demo/issues/2' },
      });
      const t0 = Date.now();
      const r = await callChecked(conn, 'get_issue', issue);
      expect(r.isError).toBeFalsy();
      expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
      expect(
        gh.api.requests.filter((q) => q.path === '/repos/acme/demo/issues/2').map((q) => q.status),
      ).toEqual([429, 200]);
    } finally {
      await conn.close();
    }
  }, 30_000);

  it('GH-09 a primary limit (403, x-ratelimit-remaining 0, reset in 2 s) is waited out; a bare 429 with Retry-After too', async () => {
    const conn = await startServer(gh);
    try {
      gh.api.clearRequests();
      const reset = String(Math.ceil(Date.now() / 1000) + 1);
      gh.api.inject({
        status: 403,
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
        body: { message: 'API rate limit exceeded for user ID 1.' },
      });
      expect((await callChecked(conn, 'get_issue', issue)).isError).toBeFalsy();
      gh.api.inject({ status: 429, headers: { 'retry-after': '1' }, body: { message: 'Too Many Requests' } });
      expect((await callChecked(conn, 'get_issue', issue)).isError).toBeFalsy();
      expect(gh.api.requests.map((q) => q.status)).toEqual([403, 200, 429, 200]);
    } finally {
      await conn.close();
    }
  }, 30_000);

  it('GH-09 a limit that resets beyond the wait budget fails at once, saying when to retry', async () => {
    const conn = await startServer(gh, ['--rate-limit-wait', '5000']);
    try {
      const reset = Math.ceil(Date.now() / 1000) + 3600;
      gh.api.inject({
        status: 403,
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
        body: { message: 'API rate limit exceeded for user ID 1.' },
      });
      const before = gh.api.requests.length;
      const r = await callChecked(conn, 'get_issue', issue);
      expect(r.isError).toBe(true);
      // Answered from the one refusal: no retry after any wait, however short.
      expect(gh.api.requests.slice(before).filter((q) => q.path.endsWith('/issues/2'))).toHaveLength(1);
      expect(r.text).toContain(
        'GitHub API 403 on GET /repos/acme/demo/issues/2: rate limited: too many requests.',
      );
      expect(r.text).toContain(
        `Retry after ${new Date(reset * 1000).toISOString()} (in 60 min, from x-ratelimit-reset).`,
      );
      gh.api.inject({
        status: 429,
        headers: { 'retry-after': '120' },
        body: { message: 'You have exceeded a secondary rate limit.' },
      });
      const s = await callChecked(conn, 'get_issue', issue);
      expect(s.text).toMatch(/429 .*rate limited.*Retry after .* \(in 2 min, from retry-after\)\./);
    } finally {
      await conn.close();
    }
  }, 30_000);

  it('writes and searches are paced client-side (GitHub guidance: 1 s between writes)', async () => {
    const conn = await startServer(gh, ['--write-interval', '400'], { pacing: true });
    try {
      gh.api.clearRequests();
      const started = Date.now();
      for (let i = 0; i < 3; i++)
        await callChecked(conn, 'add_issue_comment', { ...issue, body: `paced ${i}` });
      const times = gh.api.requests.filter((q) => q.method === 'POST').map((q) => q.at);
      expect(times).toHaveLength(3);
      // The third write's slot is two intervals after the first's, whatever the load on the machine.
      expect((times[2] ?? 0) - started).toBeGreaterThanOrEqual(800);
    } finally {
      await conn.close();
    }
  });
});

describe('ALL-07 timeouts and retries', () => {
  it('ALL-07 a hung call returns isError naming the timeout; an unrelated call answers meanwhile', async () => {
    const conn = await startServer(gh, ['--timeout', '1500']);
    try {
      gh.api.inject({ status: 200, hang: true, match: { path: '/repos/acme/demo/issues/2' } });
      let hungPending = true;
      const hung = callChecked(conn, 'get_issue', issue).finally(() => {
        hungPending = false;
      });
      await new Promise((r) => setTimeout(r, 200));
      const other = await callChecked(conn, 'get_issue', { ...issue, issue_number: 3 });
      expect(other.isError).toBeFalsy();
      expect(hungPending).toBe(true); // answered while the hung call was still waiting
      const r = await hung;
      expect(r.isError).toBe(true);
      expect(r.text).toBe('GitHub API GET /api/v3/repos/acme/demo/issues/2 timed out after 1500 ms');
    } finally {
      await conn.close();
    }
  }, 30_000);

  it('a 502 is retried for a read; a create that failed with 502 is never repeated', async () => {
    const conn = await startServer(gh);
    try {
      gh.api.clearRequests();
      gh.api.inject({ status: 502, match: { method: 'GET' } });
      expect((await callChecked(conn, 'get_issue', issue)).isError).toBeFalsy();
      expect(gh.api.requests.map((q) => q.status)).toEqual([502, 200]);
      gh.api.clearRequests();
      gh.api.inject({ status: 502, match: { method: 'POST' } });
      const r = await callChecked(conn, 'create_issue', { owner: 'acme', repo: 'demo', title: 'once' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/GitHub API 502 on POST \/repos\/acme\/demo\/issues: bad gateway/);
      expect(gh.api.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    } finally {
      await conn.close();
    }
  });
});

describe('GitHub Enterprise base URL', () => {
  const run = (env: Record<string, string>) =>
    spawnSync(serverBin('github').command, serverBin('github').args, {
      env: { ...process.env, ...env },
      input: '',
      encoding: 'utf8',
      timeout: 10_000,
    });

  it('https is required except for loopback; credentials in the URL are refused (exit 2, usage on stderr)', () => {
    for (const [url, message] of [
      ['http://ghe.example.com/api/v3', /GITHUB_API_URL: plain http is allowed only for loopback/],
      ['https://user:pw@ghe.example.com/api/v3', /GITHUB_API_URL: must not contain credentials/],
      ['ftp://ghe.example.com', /GITHUB_API_URL: scheme must be https/],
    ] as const) {
      const r = run({ GITHUB_API_URL: url });
      expect(r.status, url).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
  }, 30_000);

  it('the GHE path prefix is kept: requests go to <base>/api/v3/…', async () => {
    const conn = await startServer(gh);
    try {
      gh.api.clearRequests();
      await callChecked(conn, 'get_me', {});
      expect(gh.api.requests[0]?.rawPath).toBe('/api/v3/user');
      expect(gh.api.requests[0]?.headers['user-agent']).toMatch(/^refmcp-github\/\d+\.\d+\.\d+ /);
    } finally {
      await conn.close();
    }
  });
});
