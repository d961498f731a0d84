/**
 * Scope below the token (case GH-03): --repos limits every tool, --read-only removes writes,
 * and --lockdown withholds content by users without push access on public repositories.
 */

import { callChecked, structured } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepoScope } from '../src/scope.js';
import { startScene, startServer } from './support.js';

let gh: FakeGitHub;
beforeAll(async () => {
  ({ gh } = await startScene());
  gh.state.addRepo('acme', 'public-demo', { files: { 'README.md': 'public\n' } });
  const demo = gh.state.addRepo('octo', 'public-demo', { files: { 'a.md': 'a\n' } });
  gh.state.addIssue(demo, { title: 'x', body: 'y', user: 'octo' });
});
afterAll(() => gh.close());

describe('RepoScope', () => {
  it('parses owner/name and owner/*, compares case-insensitively, refuses bad entries', () => {
    const s = RepoScope.parse('acme/public-demo, octo/*');
    expect(s.allows('ACME', 'Public-Demo')).toBe(true);
    expect(s.allows('acme', 'private-notes')).toBe(false);
    expect(s.allows('octo', 'anything')).toBe(true);
    expect(s.searchQualifiers()).toBe('repo:acme/public-demo user:octo');
    for (const bad of ['', 'acme', 'acme/', '/x', 'a/b/c', 'ac me/x', 'acme/..', 'acme/a*'])
      expect(() => RepoScope.parse(bad), bad).toThrow(/--repos/);
  });
});

describe('GH-03 toxic flow', () => {
  it('GH-03 with --repos acme/public-demo, reading acme/private-notes is isError and sends nothing', async () => {
    const conn = await startServer(gh, ['--repos', 'acme/public-demo']);
    try {
      gh.api.clearRequests();
      for (const [tool, args] of [
        ['get_file_contents', { owner: 'acme', repo: 'private-notes', path: 'secrets.md' }],
        ['list_issues', { owner: 'acme', repo: 'private-notes' }],
        [
          'create_pull_request',
          { owner: 'acme', repo: 'private-notes', title: 't', head: 'x', base: 'main' },
        ],
        [
          'push_files',
          { owner: 'acme', repo: 'demo', branch: 'main', files: [{ path: 'a', content: 'b' }], message: 'm' },
        ],
      ] as const) {
        const r = await callChecked(conn, tool, args);
        expect(r.isError, tool).toBe(true);
        expect(r.text).toMatch(
          /is outside the repositories this server may access \(--repos acme\/public-demo\)/,
        );
      }
      expect(gh.api.requests).toEqual([]);
      const ok = await callChecked(conn, 'get_file_contents', {
        owner: 'acme',
        repo: 'public-demo',
        path: 'README.md',
      });
      expect(structured(ok)).toMatchObject({ content: 'public\n' });
    } finally {
      await conn.close();
    }
  });

  it('GH-03 search results are confined to the scope (qualifiers added, stray results withheld)', async () => {
    const conn = await startServer(gh, ['--repos', 'octo/*']);
    try {
      gh.api.clearRequests();
      const r = await callChecked(conn, 'search_repositories', { query: 'demo' });
      expect(gh.api.requests[0]?.query.get('q')).toBe('demo user:octo');
      expect(
        structured<{ repositories: { fullName: string }[] }>(r).repositories.map((x) => x.fullName),
      ).toEqual(['octo/public-demo']);
      const create = await callChecked(conn, 'create_repository', { name: 'new-one' });
      expect(create.isError).toBeFalsy(); // octo/new-one is inside octo/*
      const fork = await callChecked(conn, 'fork_repository', { owner: 'acme', repo: 'demo' });
      expect(fork.text).toMatch(/acme\/demo is outside/);
    } finally {
      await conn.close();
    }
  });

  it('GH-03 with --read-only, write tools are absent from tools/list', async () => {
    const conn = await startServer(gh, ['--read-only', '--toolsets', 'all']);
    try {
      const tools = await conn.tools();
      expect(tools.length).toBeGreaterThan(20);
      expect(tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name)).toEqual([]);
      for (const w of [
        'create_pull_request',
        'push_files',
        'create_or_update_file',
        'add_issue_comment',
        'merge_pull_request',
      ])
        expect(tools.map((t) => t.name)).not.toContain(w);
      const r = await conn.client
        .request({ method: 'tools/call', params: { name: 'create_pull_request', arguments: {} } })
        .catch((e: Error) => e);
      expect(r).toBeInstanceOf(Error); // unknown tool: JSON-RPC error
    } finally {
      await conn.close();
    }
  });
});

describe('--lockdown', () => {
  it('withholds titles and bodies by users without push access on public repositories only', async () => {
    const conn = await startServer(gh, ['--lockdown']);
    try {
      const list = await callChecked(conn, 'list_issues', { owner: 'acme', repo: 'demo', state: 'all' });
      const issues = structured<{
        issues: { number: number; author: string; title: string; body: string; withheld?: boolean }[];
      }>(list).issues;
      const byMallory = issues.find((i) => i.author === 'mallory');
      expect(byMallory).toMatchObject({
        title: '[withheld]',
        withheld: true,
        body: '[withheld by --lockdown: @mallory has no push access to acme/demo]',
      });
      expect(list.text).not.toContain('The build');
      const byMaintainer = issues.find((i) => i.author === 'maintainer');
      expect(byMaintainer).toMatchObject({ title: 'Add docs', body: 'Please document the answer.' });
      expect(byMaintainer?.withheld).toBeUndefined();
      const comments = structured<{ comments: { author: string; body: string }[] }>(
        await callChecked(conn, 'get_issue_comments', { owner: 'acme', repo: 'demo', issue_number: 1 }),
      ).comments;
      expect(comments.map((c) => [c.author, c.body.startsWith('[withheld')])).toEqual([
        ['maintainer', false],
        ['mallory', true],
      ]);
      // A private repository is not filtered.
      gh.state.addIssue(gh.state.repo('acme', 'private-notes') as never, {
        title: 'private',
        body: 'by an outsider',
        user: 'mallory',
      });
      gh.state.repo('acme', 'private-notes')?.collaborators.set('octo', 'read');
      const priv = await callChecked(conn, 'get_issue', {
        owner: 'acme',
        repo: 'private-notes',
        issue_number: 1,
      });
      expect(structured(priv)).toMatchObject({ issue: { body: 'by an outsider' } });
    } finally {
      await conn.close();
    }
  });
});
