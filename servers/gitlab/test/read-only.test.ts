/**
 * GL-01: --read-only leaves no write path, whatever --toolsets and --tools ask for; a write tool
 * called anyway is refused and the fake records only GETs. Also: --projects confines every tool
 * before any request, in the same words as the GitHub server's --repos.
 */
import { callChecked } from '@refmcp/test-harness';
import type { FakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gl: FakeGitLab;
beforeAll(async () => {
  ({ gl } = await startScene());
});
afterAll(() => gl.close());

const WRITE = /^(create|update|add|push|fork|approve|merge)_/;

describe('GL-01 read-only', () => {
  it('GL-01 serves only read tools, alone, with every toolset and with --tools naming writes', async () => {
    for (const extra of [
      [],
      ['--toolsets', 'all'],
      ['--tools', 'push_files,create_or_update_file,get_file_contents,search_repositories'],
    ]) {
      const conn = await startServer(gl, ['--read-only', ...extra]);
      try {
        const tools = await conn.tools();
        const names = tools.map((t) => t.name);
        expect(
          names.filter((n) => WRITE.test(n)),
          extra.join(' '),
        ).toEqual([]);
        expect(names).toContain('get_file_contents');
        expect(names).toContain('search_repositories');
        for (const t of tools) {
          expect(t.annotations?.readOnlyHint, t.name).toBe(true);
          expect(JSON.stringify(t.inputSchema)).not.toMatch(/graphql|mutation/i);
        }
      } finally {
        await conn.close();
      }
    }
  });

  it('GL-01 a write tool called anyway is refused; the fake records only GETs', async () => {
    const conn = await startServer(gl, ['--read-only', '--toolsets', 'all']);
    gl.api.clearRequests();
    try {
      const push = await conn.client
        .request({
          method: 'tools/call',
          params: {
            name: 'push_files',
            arguments: {
              project_id: 'grp/proj',
              branch: 'main',
              commit_message: 'x',
              files: [{ file_path: 'a.md', content: 'x' }],
            },
          },
        })
        .then(
          (r) => r as { isError?: boolean },
          (e: Error) => ({ isError: true, error: e.message }),
        );
      expect(push.isError).toBe(true);
      const move = await conn.client
        .request({
          method: 'tools/call',
          params: {
            name: 'create_or_update_file',
            arguments: {
              project_id: 'grp/proj',
              branch: 'main',
              commit_message: 'x',
              file_path: 'new.md',
              content: 'x',
              previous_path: 'old.md',
            },
          },
        })
        .then(
          (r) => r as { isError?: boolean },
          (e: Error) => ({ isError: true, error: e.message }),
        );
      expect(move.isError).toBe(true);
      await callChecked(conn, 'get_project', { project_id: 'grp/proj' });
      expect(gl.api.requests.length).toBeGreaterThan(0);
      expect(gl.api.requests.every((r) => r.method === 'GET')).toBe(true);
    } finally {
      await conn.close();
    }
  });
});

describe('--projects scope', () => {
  it('refuses a project outside the allowlist before any request, in --repos words', async () => {
    const conn = await startServer(gl, ['--projects', 'grp/proj,other/*']);
    gl.api.clearRequests();
    try {
      const r = await callChecked(conn, 'get_file_contents', {
        project_id: 'upstream/private',
        file_path: 'secrets.md',
      });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(
        'upstream/private is outside the projects this server may access (--projects grp/proj,other/*). This limit is set by the operator and cannot be changed by a tool call; work within the allowed projects.',
      );
      const numeric = await callChecked(conn, 'get_project', { project_id: '44' });
      expect(numeric.isError).toBe(true);
      expect(numeric.text).toMatch(/project_id 44: name the project by its path/);
      expect(gl.api.requests).toEqual([]);
      const ok = await callChecked(conn, 'get_project', { project_id: 'GRP/proj' });
      expect(ok.isError).toBeFalsy();
      const search = await callChecked(conn, 'search_repositories', { search: 'proj' });
      expect((search.structuredContent as { projects: unknown[] }).projects).toEqual([
        expect.objectContaining({ path: 'grp/proj' }),
      ]);
      expect(search.text).toContain('outside --projects left out');
    } finally {
      await conn.close();
    }
  });
});
