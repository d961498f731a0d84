/**
 * The cases every server has (all-servers.md), on GitLab's own ground: verbose logging and every
 * tool called (ALL-01), hostile arguments to a GitLab tool (ALL-02), the token through a success, a
 * 401 and a validation error with an audit log (ALL-03), stdin EOF during a slow GitLab request
 * (ALL-04), a hung GitLab request against --timeout (ALL-07), and both protocol eras (ALL-08). The
 * harness's conformance run checks the same for every tool (conformance.test.ts); these name them.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { callChecked, tempDir } from '@refmcp/test-harness';
import type { FakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCENE_TOKEN, startScene, startServer } from './support.js';

let gl: FakeGitLab;
beforeAll(async () => {
  ({ gl } = await startScene());
});
afterAll(() => gl.close());
afterEach(() => gl.resetFaults());

const PROJECT = { project_id: 'grp/proj' };
const VERBOSE = { MCP_DEBUG: '1', DEBUG: '*', LOG_LEVEL: 'debug', NODE_DEBUG: 'http' };

describe('all-servers cases on GitLab', () => {
  it('ALL-01 with verbose logging on, every tool called with good and bad arguments leaves stdout JSON-RPC only', async () => {
    const conn = await startServer(gl, ['--toolsets', 'all'], { env: VERBOSE });
    try {
      const tools = await conn.tools();
      expect(tools.length).toBe(52);
      for (const tool of tools) {
        await callChecked(conn, tool.name, {});
        await callChecked(conn, tool.name, { ...PROJECT, unexpected: true });
      }
      expect((await callChecked(conn, 'get_project', PROJECT)).isError).toBeFalsy();
      expect(conn.stdoutLines().length).toBeGreaterThan(tools.length);
      expect(conn.nonJsonStdout()).toEqual([]);
    } finally {
      await conn.close();
    }
  });

  it('ALL-02 hostile arguments to get_issue are isError naming the argument; the server answers afterwards', async () => {
    const conn = await startServer(gl);
    try {
      const cases: [Record<string, unknown>, string][] = [
        [{ project_id: 'grp/proj' }, 'issue_iid'],
        [{ ...PROJECT, issue_iid: 'abc' }, 'issue_iid'],
        [{ ...PROJECT, issue_iid: 1, extra: 1 }, 'extra'],
        [{ project_id: 'g/'.repeat(500_000), issue_iid: 1 }, 'project_id'],
        [{ project_id: 'grp/pr\u0000oj', issue_iid: 1 }, 'project_id'],
        [{ project_id: 'grp/\ud800', issue_iid: 1 }, 'project_id'],
        [{ project_id: 'grp/🦊', issue_iid: 1 }, 'project_id'],
      ];
      gl.api.clearRequests();
      for (const [args, name] of cases) {
        const r = await callChecked(conn, 'get_issue', args);
        expect(r.isError, JSON.stringify(args).slice(0, 80)).toBe(true);
        expect(r.text).toContain(name);
      }
      expect(gl.api.requests).toEqual([]);
      expect((await callChecked(conn, 'get_issue', { ...PROJECT, issue_iid: 1 })).isError).toBeFalsy();
    } finally {
      await conn.close();
    }
  });

  it('ALL-03 the token is in no result, error, stderr or audit line: a success, a 401 and a validation error', async () => {
    const { dir, cleanup } = await tempDir('refmcp-gitlab-all03-');
    const auditLog = join(dir, 'audit.log');
    const conn = await startServer(gl, ['--audit-log', auditLog], { env: VERBOSE });
    try {
      const texts: string[] = [];
      const ok = await callChecked(conn, 'get_project', PROJECT);
      expect(ok.isError).toBeFalsy();
      gl.api.inject({ status: 401, body: { message: '401 Unauthorized' }, match: { method: 'GET' } });
      const denied = await callChecked(conn, 'get_project', PROJECT);
      expect(denied.isError).toBe(true);
      expect(denied.text).toContain('401');
      const invalid = await callChecked(conn, 'get_project', { project_id: SCENE_TOKEN });
      expect(invalid.isError).toBe(true);
      texts.push(JSON.stringify([ok, denied, invalid]), conn.stderr());
      await conn.close();
      texts.push(await readFile(auditLog, 'utf8'));
      expect(texts.at(-1)).toContain('get_project');
      for (const text of texts) expect(text).not.toContain('TESTTOKEN123');
    } finally {
      await conn.close();
      await cleanup();
    }
  });

  it('ALL-04 stdin EOF while a GitLab request is in flight: exit 0 within 2 s', async () => {
    const conn = await startServer(gl);
    gl.api.latency(10_000, (req) => req.path === '/projects' && req.query.get('search') === 'slow-eof');
    const pending = callChecked(conn, 'search_repositories', { search: 'slow-eof' }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    conn.closeStdin();
    const exit = await conn.exited;
    // Within the shutdown budget (1.5 s, shared/src/server/run.ts), not after the 10 s request: a
    // bound of 8 s leaves a loaded machine five times the budget and still tells the two apart.
    expect(Date.now() - started).toBeLessThan(8000);
    expect(exit.code).toBe(0);
    await pending;
    await conn.close();
  });

  it('ALL-07 a hung GitLab request is isError naming the timeout; an unrelated call answers meanwhile', async () => {
    const conn = await startServer(gl, ['--timeout', '1500']);
    try {
      gl.api.inject({
        status: 200,
        hang: true,
        times: Number.POSITIVE_INFINITY,
        match: (req) => req.path === '/projects/grp%2Fproj/issues',
      });
      let hungAnswered = false;
      const hung = callChecked(conn, 'list_issues', PROJECT).finally(() => {
        hungAnswered = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const other = await callChecked(conn, 'get_project', PROJECT);
      expect(other.isError).toBeFalsy();
      // Answered while the hung call still waited (not after its timeout), however slow the machine.
      expect(hungAnswered).toBe(false);
      const r = await hung;
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/timed out|timeout/i);
      expect(r.text).toContain('1500');
    } finally {
      await conn.close();
    }
  });

  it('ALL-08 a 2025-11-25 client and a 2026-07-28 client list the same tools and get the same results', async () => {
    const legacy = await startServer(gl, [], { era: 'legacy' });
    const modern = await startServer(gl, [], { era: 'modern' });
    try {
      const names = async (c: typeof legacy) => (await c.tools()).map((t) => t.name);
      expect(await names(modern)).toEqual(await names(legacy));
      for (const [tool, args] of [
        ['get_project', PROJECT],
        ['list_issues', { ...PROJECT, state: 'all', per_page: 5 }],
        ['get_file_contents', { ...PROJECT, file_path: 'docs', ref: 'main' }],
      ] as const) {
        const [a, b] = [await callChecked(legacy, tool, args), await callChecked(modern, tool, args)];
        expect(b.structuredContent, tool).toEqual(a.structuredContent);
        expect(b.text, tool).toEqual(a.text);
      }
    } finally {
      await legacy.close();
      await modern.close();
    }
  });
});
