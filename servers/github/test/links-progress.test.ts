/**
 * Issue 32: resource links and progress. Results that name repository files on the default branch
 * (a directory's entries, a file read, code search hits, the default branch's tree) carry
 * `resource_link`s to their repo:// resources — at most MAX_RESOURCE_LINKS, none for what was read
 * at another ref; get_ci_failures (and get_job_logs, a heartbeat) report progress while they download
 * job logs, only to a call that carried a progressToken, and stop when the client cancels mid-download.
 */
import { MAX_RESOURCE_LINKS } from '@refmcp/shared/server';
import { type Connection, callChecked, cancelAtBeat } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gh: FakeGitHub;
let conn: Connection;
const base = { owner: 'acme', repo: 'demo' };
const progressLines = () => conn.stdoutLines().filter((l) => l.includes('"notifications/progress"'));

type Block = { type: string; uri?: string; name?: string; size?: number };
const links = (r: { content?: unknown }) =>
  ((r.content ?? []) as Block[]).filter((b) => b.type === 'resource_link');

beforeAll(async () => {
  const started = await startScene();
  gh = started.gh;
  const s = gh.state;
  const demo = started.scene.demo;
  const many = Object.fromEntries(
    Array.from({ length: 30 }, (_, i) => [`many/f${String(i).padStart(2, '0')}.txt`, `file ${i}\n`]),
  );
  s.commit(demo, 'main', { ...many, 'docs/a b.md': 'needle here\n' }, 'many files', 'octo');
  s.commit(demo, 'other', { 'src/app.ts': 'export const other = 1;\n' }, 'other branch', 'octo');
  const red = s.addPull(demo, { title: 'Red', body: '', user: 'octo', head: 'red', files: { 'r.ts': '' } });
  const run = s.addRun(demo, {
    name: 'CI',
    branch: 'red',
    event: 'pull_request',
    conclusion: 'failure',
    jobs: [
      {
        name: 'unit',
        conclusion: 'failure',
        steps: [{ name: 'test', conclusion: 'failure' }],
        log: 'Error: x\n',
      },
      {
        name: 'lint',
        conclusion: 'failure',
        steps: [{ name: 'lint', conclusion: 'failure' }],
        log: 'Error: y\n',
      },
    ],
  });
  redPull = red.number;
  jobId = run.jobs[0]?.id ?? 0;
  conn = await startServer(gh, ['--toolsets', 'repos,actions']);
});
let redPull = 0;
let jobId = 0;
afterAll(async () => {
  await conn?.close();
  await gh?.close();
});

describe('resource links', () => {
  it("a directory's files link to their repo:// resources, which read back the same file", async () => {
    const r = await callChecked(conn, 'get_file_contents', { ...base, path: 'src' });
    expect(links(r)).toEqual([
      { type: 'resource_link', uri: 'repo://acme/demo/contents/src/app.ts', name: 'src/app.ts', size: 26 },
    ]);
    const read = await conn.client.readResource({ uri: links(r)[0]?.uri ?? '' });
    expect(read.contents[0]).toMatchObject({ text: 'export const answer = 42;\n' });
  });

  it('a page of many files carries at most MAX_RESOURCE_LINKS links, in result order', async () => {
    const r = await callChecked(conn, 'get_file_contents', { ...base, path: 'many' });
    expect(links(r).map((l) => l.name)).toEqual(
      Array.from({ length: MAX_RESOURCE_LINKS }, (_, i) => `many/f${String(i).padStart(2, '0')}.txt`),
    );
  });

  it('a file read on the default branch links to itself (path segments percent-encoded)', async () => {
    const r = await callChecked(conn, 'get_file_contents', { ...base, path: 'docs/a b.md' });
    expect(links(r)).toEqual([
      {
        type: 'resource_link',
        uri: 'repo://acme/demo/contents/docs/a%20b.md',
        name: 'docs/a b.md',
        size: 12,
      },
    ]);
  });

  it('what was read at another ref gets no link (repo:// reads the default branch)', async () => {
    for (const path of ['src', 'src/app.ts']) {
      const r = await callChecked(conn, 'get_file_contents', { ...base, path, branch: 'other' });
      expect(r.isError).toBeFalsy();
      expect(links(r)).toEqual([]);
    }
    const tree = await callChecked(conn, 'get_repository_tree', { ...base, tree_sha: 'other' });
    expect(links(tree)).toEqual([]);
  });

  it("code search hits and the default branch's tree link to their files", async () => {
    const hits = await callChecked(conn, 'search_code', { q: 'needle repo:acme/demo' });
    expect(links(hits)).toEqual([
      {
        type: 'resource_link',
        uri: 'repo://acme/demo/contents/docs/a%20b.md',
        name: 'acme/demo: docs/a b.md',
      },
    ]);
    const tree = await callChecked(conn, 'get_repository_tree', { ...base });
    const tl = links(tree);
    expect(tl).toHaveLength(MAX_RESOURCE_LINKS);
    expect(tl.every((l) => l.uri?.startsWith('repo://acme/demo/contents/'))).toBe(true);
    expect(tl.some((l) => l.name === 'src')).toBe(false); // directories are not linked
  });
});

describe('progress of get_ci_failures', () => {
  it('heartbeats while job logs download, and a cancel mid-download ends the call', async () => {
    // The logs never arrive: only the progress heartbeat shows the call is alive.
    gh.storage.inject({
      status: 200,
      hang: true,
      times: Number.POSITIVE_INFINITY,
      match: { path: /\/logs\// },
    });
    try {
      const { outcome, seen } = await cancelAtBeat(conn, 'get_ci_failures', {
        ...base,
        pull_number: redPull,
      });
      expect(outcome).toBe('aborted');
      expect(seen.map((p) => p.progress)).toEqual([0, 1]);
      expect(seen[0]?.message).toMatch(/^0 of 2 failed job logs read, \d+ s$/);
      // Messages are handled in order: once tools/list answers, the server has seen the cancellation.
      await conn.client.listTools();
      const after = progressLines().length;
      await conn.client.listTools();
      expect(progressLines().length).toBe(after);
    } finally {
      gh.storage.resetFaults();
    }
  });

  it('get_job_logs heartbeats while its log downloads, until cancelled', async () => {
    gh.storage.inject({
      status: 200,
      hang: true,
      times: Number.POSITIVE_INFINITY,
      match: { path: /\/logs\// },
    });
    try {
      const { outcome, seen } = await cancelAtBeat(conn, 'get_job_logs', { ...base, job_id: jobId });
      expect(outcome).toBe('aborted');
      expect(seen.map((p) => p.message?.replace(/\d+ s$/, 'N s'))).toEqual([
        'downloading the job log, N s',
        'downloading the job log, N s',
      ]);
    } finally {
      gh.storage.resetFaults();
    }
    const r = await callChecked(conn, 'get_job_logs', { ...base, job_id: jobId });
    expect(r.text).toContain('Error: x');
  });

  it('sends nothing to a call without a progressToken, and the digest is whole', async () => {
    const before = progressLines().length;
    const r = await callChecked(conn, 'get_ci_failures', { ...base, pull_number: redPull });
    expect(r.isError).toBeFalsy();
    expect(JSON.stringify(r.structuredContent)).toContain('Error: x');
    expect(progressLines().length).toBe(before);
  });
});
