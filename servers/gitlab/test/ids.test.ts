/**
 * GL-02 ids cannot leave their endpoint; GL-09 an instance at a path, nested groups, odd file
 * names and refs sent exactly; the startup checks of GITLAB_API_URL and --projects; and the
 * insurance that no request of any test leaves loopback.
 */
import { spawnSync } from 'node:child_process';
import { callChecked, serverBin } from '@refmcp/test-harness';
import type { FakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gl: FakeGitLab;
beforeAll(async () => {
  ({ gl } = await startScene());
});
afterAll(() => gl.close());

describe('GL-02 ids cannot leave their endpoint', () => {
  it('GL-02 hostile job_id, file_path and project_id are isError naming the argument, with no request', async () => {
    const conn = await startServer(gl, ['--toolsets', 'pipelines,projects']);
    gl.api.clearRequests();
    try {
      for (const job_id of ['../../../user', '1?private_token=x', '1%2F..%2F..', -1]) {
        const r = await callChecked(conn, 'get_job_log', { project_id: 'grp/sub/proj', job_id });
        expect(r.isError, String(job_id)).toBe(true);
        expect(r.text).toContain('job_id');
      }
      const path = await callChecked(conn, 'get_file_contents', {
        project_id: 'grp/proj',
        file_path: '../../../../user',
        ref: 'main',
      });
      expect(path.isError).toBe(true);
      expect(path.text).toContain('file_path');
      const project = await callChecked(conn, 'get_file_contents', {
        project_id: '../../user',
        file_path: 'README.md',
      });
      expect(project.isError).toBe(true);
      expect(project.text).toContain('project_id');
      expect(gl.api.requests).toEqual([]);

      const ok = await callChecked(conn, 'get_job_log', { project_id: 'grp/sub/proj', job_id: 987 });
      expect(ok.isError).toBeFalsy();
      expect(ok.text).toContain('All good');
      expect(gl.api.requests.map((r) => r.rawPath)).toEqual([
        '/api/v4/projects/grp%2Fsub%2Fproj/jobs/987/trace',
      ]);
    } finally {
      await conn.close();
    }
  });
});

describe('GL-09 self-hosted at a path', () => {
  let sub: FakeGitLab;
  beforeAll(async () => {
    ({ gl: sub } = await startScene('/gitlab/api/v4'));
  });
  afterAll(() => sub.close());

  it('GL-09 encodes nested project paths and file paths whole, sends ref as one query value, keeps the prefix', async () => {
    const conn = await startServer(sub);
    try {
      const r = await callChecked(conn, 'get_file_contents', {
        project_id: 'grp/sub/proj',
        file_path: 'dir/a b#1?.md',
        ref: 'feat/x&per_page=100',
      });
      expect(r.isError).toBeFalsy();
      expect(r.text).toContain('odd name on an odd branch');
      const req = sub.api.requests.find((q) => q.rawPath.includes('/repository/files/'));
      expect(req?.rawPath).toBe(
        '/gitlab/api/v4/projects/grp%2Fsub%2Fproj/repository/files/dir%2Fa%20b%231%3F.md',
      );
      expect([...(req?.query.keys() ?? [])]).toEqual(['ref']);
      expect(req?.query.get('ref')).toBe('feat/x&per_page=100');

      sub.api.clearRequests();
      const byId = await callChecked(conn, 'get_file_contents', {
        project_id: '42',
        file_path: 'README.md',
        ref: 'main',
      });
      expect(byId.isError).toBeFalsy();
      expect(sub.api.requests[0]?.rawPath).toMatch(/^\/gitlab\/api\/v4\/projects\/42\//);
      expect(sub.api.requests.every((q) => q.rawPath.startsWith('/gitlab/api/v4/'))).toBe(true);
    } finally {
      await conn.close();
    }
  });
});

describe('startup configuration', () => {
  const run = (env: Record<string, string>, args: string[] = []) =>
    spawnSync(serverBin('gitlab').command, [...serverBin('gitlab').args, ...args], {
      env: { ...process.env, ...env },
      input: '',
      encoding: 'utf8',
      timeout: 10_000,
    });

  it('GL-09 an http:// base that is not loopback fails at startup (https required)', () => {
    const r = run({ GITLAB_API_URL: 'http://git.example.com/gitlab/api/v4' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/GITLAB_API_URL: plain http is allowed only for loopback/);
    expect(r.stdout).toBe('');
  });

  it('a malformed --projects is refused at startup', () => {
    const r = run({ GITLAB_API_URL: gl.url }, ['--projects', 'grp']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--projects: "grp" is not group/project or group/*');
  });

  it('warns in one stderr line when GITLAB_API_URL does not end in /api/v4, and not when it does', () => {
    const web = run({ GITLAB_API_URL: 'https://git.example.com/gitlab/' }, ['--toolsets', 'nope']);
    expect(
      web.stderr.match(/GITLAB_API_URL https:\/\/git\.example\.com\/gitlab does not end in \/api\/v4/g),
    ).toHaveLength(1);
    const api = run({ GITLAB_API_URL: 'https://git.example.com/gitlab/api/v4' }, ['--toolsets', 'nope']);
    expect(api.stderr).not.toContain('does not end in /api/v4');
  });

  it('without a token, "public data only" comes once, before a --toolsets error', () => {
    const r = run({ GITLAB_API_URL: gl.url, GITLAB_PERSONAL_ACCESS_TOKEN: '', GITLAB_TOKEN: '' }, [
      '--toolsets',
      'nope',
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr.match(/public data only/g)).toHaveLength(1);
    expect(r.stderr.indexOf('public data only')).toBeLessThan(
      r.stderr.indexOf('--toolsets: unknown toolset'),
    );
    expect(r.stderr.indexOf('--toolsets: unknown toolset')).toBeGreaterThan(-1);
  });

  it('without a token: public data only, said once on stderr', async () => {
    const conn = await startServer(gl, [], { env: { GITLAB_PERSONAL_ACCESS_TOKEN: '' } });
    try {
      const r = await callChecked(conn, 'get_project', { project_id: 'grp/proj' });
      expect(r.isError).toBeFalsy();
      expect(conn.stderr().match(/public data only/g)).toHaveLength(1);
    } finally {
      await conn.close();
    }
  });
});

describe('no request leaves loopback', () => {
  it('every request the fakes recorded came from and went to 127.0.0.1', async () => {
    const conn = await startServer(gl);
    try {
      await callChecked(conn, 'get_me', {});
      for (const r of gl.api.requests) expect(r.headers.host).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(new URL(gl.url).hostname).toBe('127.0.0.1');
    } finally {
      await conn.close();
    }
  });
});
