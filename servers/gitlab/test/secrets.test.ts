/**
 * GL-03 secrets inside API objects (runners_token, credentials in import_url, also in
 * forked_from_project) never reach the model; GL-04 the token stays out of results, errors and
 * stderr, also when GitLab's 500 echoes it, with either token variable.
 */
import { callChecked } from '@refmcp/test-harness';
import { type FakeGitLab, IMPORT_URL, RUNNERS_TOKEN } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENE_TOKEN, startScene, startServer } from './support.js';

let gl: FakeGitLab;
beforeAll(async () => {
  ({ gl } = await startScene());
});
afterAll(() => gl.close());

describe('GL-03 secrets in API objects', () => {
  it('GL-03 project objects lose runners_token and import_url credentials, also of the fork parent', async () => {
    const conn = await startServer(gl);
    try {
      const results = [
        await callChecked(conn, 'get_project', { project_id: 'grp/proj' }),
        await callChecked(conn, 'search_repositories', { search: 'proj' }),
        await callChecked(conn, 'fork_repository', { project_id: 'grp/proj' }),
        await callChecked(conn, 'create_repository', { name: 'demo' }),
      ];
      // The fake did send them.
      expect(JSON.stringify(gl.api.requests.map((r) => r.reply?.body))).toContain(RUNNERS_TOKEN);
      for (const r of results) {
        expect(r.isError).toBeFalsy();
        const all = JSON.stringify(r);
        expect(all).not.toContain('RUNNERSECRET');
        expect(all).not.toContain('PASSW0RD');
        expect(all).not.toContain(IMPORT_URL);
      }
      expect(results[0]?.structuredContent).toMatchObject({
        project: { path: 'grp/proj', forkedFrom: 'upstream/proj' },
      });
    } finally {
      await conn.close();
    }
  });
});

describe('GL-04 the token stays out of logs and errors', () => {
  for (const variable of ['GITLAB_PERSONAL_ACCESS_TOKEN', 'GITLAB_TOKEN']) {
    it(`GL-04 a 401 and a 500 echoing the auth header carry status and GitLab's words, never the token (${variable})`, async () => {
      const env = {
        GITLAB_PERSONAL_ACCESS_TOKEN: '',
        [variable]: SCENE_TOKEN,
        DEBUG: '*',
        LOG_LEVEL: 'debug',
      };
      const conn = await startServer(gl, [], { env });
      try {
        gl.api.inject({
          status: 401,
          body: { message: '401 Unauthorized' },
          match: { method: 'GET', path: '/projects' },
        });
        const unauthorized = await callChecked(conn, 'search_repositories', { search: 'x' });
        expect(unauthorized.isError).toBe(true);
        expect(unauthorized.text).toContain('GitLab API 401');
        expect(unauthorized.text).toContain('401 Unauthorized');
        gl.failEchoingAuth({ method: 'POST', path: '/projects' });
        const failed = await callChecked(conn, 'create_repository', { name: 'demo2' });
        expect(failed.isError).toBe(true);
        expect(failed.text).toContain('GitLab API 500');
        expect(failed.text).toContain('Internal Server Error');
        // The fake did echo it.
        expect(JSON.stringify(gl.api.requests.at(-1)?.reply)).toContain(SCENE_TOKEN);
        for (const text of [unauthorized.text, failed.text, JSON.stringify(failed), conn.stderr()])
          expect(text).not.toContain('TESTTOKEN123');
      } finally {
        gl.resetFaults();
        await conn.close();
      }
    });
  }
});
