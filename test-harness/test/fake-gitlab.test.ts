/**
 * The fake GitLab driven by the field's client, @gitbeaker/rest, through every route it serves —
 * and checked against GitLab's own OpenAPI description (with the documented errata): every route
 * it registers is an operation there, and every reply this file's traffic produced is declared
 * and validates. The check also fails when the fake answers a wrong field type or content type.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRequest, recordTraffic, routeTemplate } from '../src/fake-api/index.js';
import { renderErrata } from '../src/fakes/gitlab/errata-doc.js';
import {
  type FakeGitLab,
  READ_ONLY_TOKEN,
  RUNNERS_TOKEN,
  SCENE_TOKEN,
  seedScene,
  startFakeGitLab,
} from '../src/fakes/gitlab/index.js';
import { gitlabSpec } from '../src/fakes/gitlab/spec.js';
import { checkTraffic, undescribedRoutes } from '../src/spec/index.js';

const traffic = recordTraffic('fake-gitlab-traffic-');

let gl: FakeGitLab;
let api: InstanceType<typeof Gitlab>;
let scene: ReturnType<typeof seedScene>;

/** The last request the fake recorded whose path contains `fragment`. */
const last = (fragment: string): FakeRequest => {
  const found = gl.api.requests.filter((r) => r.rawPath.includes(fragment)).at(-1);
  if (!found) throw new Error(`no request to ${fragment}`);
  return found;
};

/** A request with the scene token by fetch, for what the client hides (headers, raw answers). */
async function raw(path: string, init: RequestInit & { token?: string | null } = {}) {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (init.token !== null) headers['private-token'] = init.token ?? SCENE_TOKEN;
  const res = await fetch(`${gl.url}${path}`, { ...init, headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The description GitbeakerRequestError carries (GitLab's message or error). */
async function failure(promise: Promise<unknown>): Promise<{ status: number; description: string }> {
  try {
    await promise;
  } catch (error) {
    const cause = (error as { cause?: { description: string; response: Response } }).cause;
    return { status: cause?.response.status ?? 0, description: cause?.description ?? String(error) };
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  gl = await startFakeGitLab();
  scene = seedScene(gl);
  api = new Gitlab({ host: new URL(gl.url).origin, token: SCENE_TOKEN });
});

afterAll(async () => {
  await gl.close();
  traffic.stop();
});

describe('fake GitLab through @gitbeaker/rest', () => {
  it('answers the caller, the version and the metadata', async () => {
    expect((await api.Users.showCurrentUser()).username).toBe('tester');
    expect((await api.Metadata.show()).version).toMatch(/^19\.5/);
    const version = await raw('/version');
    expect(JSON.parse(version.text).version).toMatch(/^19\.5/);
    expect(version.headers.get('ratelimit-limit')).toBe('2000');
  });

  it('lists projects in offset pages with Link and X-* headers', async () => {
    const { data, paginationInfo } = await api.Projects.all({ perPage: 2, maxPages: 1, showExpanded: true });
    expect(data).toHaveLength(2);
    expect(paginationInfo).toMatchObject({ perPage: 2, current: 1, next: 2, previous: null });
    const reply = last('/projects').reply;
    expect(reply?.headers).toMatchObject({
      'x-page': '1',
      'x-per-page': '2',
      'x-next-page': '2',
      'x-prev-page': '',
    });
    expect(reply?.headers).toMatchObject({ 'x-total': '4', 'x-total-pages': '2' });
    expect(reply?.headers.link).toMatch(/rel="next".*rel="first".*rel="last"/);
    const found = await api.Projects.all({ search: 'proj', perPage: 100, maxPages: 1 });
    expect(found.map((p) => p.path_with_namespace)).toEqual(
      expect.arrayContaining(['grp/proj', 'grp/sub/proj']),
    );
    expect(found.map((p) => p.path_with_namespace)).not.toContain('upstream/private');
  });

  it('lists projects in keyset pages with only Link rel="next"', async () => {
    const all = await api.Projects.all({ pagination: 'keyset', orderBy: 'id', sort: 'asc', perPage: 2 });
    const ids = all.map((p) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).toEqual(expect.arrayContaining([40, 42, 43, 45]));
    const pages = gl.api.requests.filter((r) => r.rawQuery.includes('pagination=keyset'));
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]?.reply?.headers.link).toMatch(/id_after=\d+.*rel="next"$/);
    expect(pages[0]?.reply?.headers['x-total']).toBeUndefined();
    expect(pages.at(-1)?.reply?.headers.link).toBeUndefined();
    const bad = await raw('/projects?pagination=keyset&order_by=name');
    expect(bad.status).toBe(405);
    expect(JSON.parse(bad.text).error).toMatch(/Keyset pagination/);
  });

  it('leaves out totals past the count limit', async () => {
    const small = await startFakeGitLab({ countLimit: 2 });
    seedScene(small);
    const res = await fetch(`${small.url}/projects?per_page=1`, {
      headers: { 'private-token': SCENE_TOKEN },
    });
    expect(res.headers.get('x-total')).toBeNull();
    expect(res.headers.get('x-next-page')).toBe('2');
    expect(res.headers.get('link')).not.toMatch(/rel="last"/);
    await small.close();
  });

  it('gets a project by URL-encoded path and by id, secrets included as GitLab sends them', async () => {
    const byPath = await api.Projects.show('grp/proj');
    expect(last('/projects/grp').rawPath).toBe('/api/v4/projects/grp%2Fproj');
    expect(byPath).toMatchObject({
      id: 42,
      runners_token: RUNNERS_TOKEN,
      import_url: expect.stringContaining('PASSW0RD'),
    });
    expect((byPath.forked_from_project as { runners_token?: string }).runners_token).toBe(RUNNERS_TOKEN);
    expect((await api.Projects.show(43)).path_with_namespace).toBe('grp/sub/proj');
    expect((await raw('/projects/grp/proj')).text).toBe('{"error":"404 Not Found"}');
    expect(await failure(api.Projects.show('upstream/private'))).toMatchObject({
      status: 404,
      description: expect.stringContaining('404 Project Not Found'),
    });
  });

  it('reads files (object and raw), binary files and odd names', async () => {
    const file = await api.RepositoryFiles.show('grp/sub/proj', 'dir/a b#1?.md', 'feat/x&per_page=100');
    expect(Buffer.from(file.content, 'base64').toString()).toBe('odd name on an odd branch\n');
    const req = last('/repository/files/');
    expect(req.rawPath).toBe('/api/v4/projects/grp%2Fsub%2Fproj/repository/files/dir%2Fa%20b%231%3F.md');
    expect([...req.query]).toEqual([['ref', 'feat/x&per_page=100']]);
    expect(await api.RepositoryFiles.showRaw(42, 'README.md', 'main')).toContain('# proj');
    const png = await raw('/projects/42/repository/files/docs%2Fimg%2Flogo.png/raw?ref=main');
    expect(png.headers.get('content-type')).toBe('application/octet-stream');
    expect((await raw('/projects/42/repository/files/docs/a.md?ref=main')).status).toBe(404);
    expect(await failure(api.RepositoryFiles.show(42, 'missing.md', 'main'))).toMatchObject({
      status: 404,
      description: expect.stringContaining('404 File Not Found'),
    });
  });

  it('lists the tree of a directory, paged', async () => {
    const docs = await api.Repositories.allRepositoryTrees(42, { path: 'docs', ref: 'main' });
    expect(docs.map((e) => [e.name, e.type])).toEqual([
      ['img', 'tree'],
      ['a.md', 'blob'],
    ]);
    const big = await api.Repositories.allRepositoryTrees(42, {
      path: 'big',
      ref: 'main',
      perPage: 100,
      maxPages: 1,
    });
    expect(big).toHaveLength(100);
    expect(last('/repository/tree').reply?.headers['x-next-page']).toBe('2');
    const keyset = await api.Repositories.allRepositoryTrees(42, {
      path: 'big',
      ref: 'main',
      pagination: 'keyset',
      perPage: 60,
    });
    expect(keyset.map((e) => e.name)).toEqual(
      Array.from({ length: 150 }, (_, i) => `file-${String(i + 1).padStart(3, '0')}.txt`),
    );
    expect(last('/repository/tree').rawQuery).toContain('page_token=');
    expect(
      await failure(api.Repositories.allRepositoryTrees(42, { path: 'nope', ref: 'main' })),
    ).toMatchObject({
      status: 404,
      description: expect.stringContaining('404 Tree Not Found'),
    });
  });

  it('creates and updates files, refusing to create one that exists', async () => {
    expect(await api.RepositoryFiles.create(42, 'notes/x.md', 'main', 'hello', 'add x')).toMatchObject({
      file_path: 'notes/x.md',
      branch: 'main',
    });
    await api.RepositoryFiles.edit(42, 'notes/x.md', 'main', 'hello again', 'edit x');
    expect(await api.RepositoryFiles.showRaw(42, 'notes/x.md', 'main')).toBe('hello again');
    expect(await failure(api.RepositoryFiles.create(42, 'notes/x.md', 'main', 'x', 'again'))).toMatchObject({
      status: 400,
      description: expect.stringContaining('A file with this name already exists'),
    });
  });

  it('commits several actions at once (update existing, create new)', async () => {
    const commit = await api.Commits.create(42, 'main', 'm', [
      { action: 'update', filePath: 'README.md', content: 'v2' },
      { action: 'create', filePath: 'docs/new.md', content: 'new' },
    ]);
    expect(commit.id).toMatch(/^[0-9a-f]{40}$/);
    expect(last('/repository/commits').status).toBe(201);
    expect(await api.RepositoryFiles.showRaw(42, 'README.md', 'main')).toBe('v2');
    expect(
      await failure(
        api.Commits.create(42, 'main', 'm', [{ action: 'create', filePath: 'README.md', content: 'x' }]),
      ),
    ).toMatchObject({ status: 400, description: expect.stringContaining('already exists') });
    const [head] = await api.Commits.all(42, { refName: 'main', perPage: 1, maxPages: 1 });
    expect((await api.Commits.show(42, head?.id ?? '')).stats).toMatchObject({ additions: 2 });
    expect((await api.Commits.showDiff(42, head?.id ?? '')).map((d) => d.new_path)).toEqual([
      'README.md',
      'docs/new.md',
    ]);
    expect((await api.Repositories.compare(42, 'main', 'dev')).diffs?.length).toBeGreaterThan(0);
  });

  it('creates a branch once', async () => {
    expect((await api.Branches.create(42, 'topic', 'main')).name).toBe('topic');
    expect((await api.Branches.show(42, 'topic')).protected).toBe(false);
    expect((await api.Branches.all(42)).map((b) => b.name)).toContain('dev');
    expect(await failure(api.Branches.create(42, 'topic', 'main'))).toMatchObject({
      status: 400,
      description: expect.stringContaining('Branch already exists'),
    });
  });

  it('lists, creates, gets and updates issues and their notes', async () => {
    const issues = await api.Issues.all({ projectId: 42, state: 'opened' });
    expect(issues.map((i) => i.iid)).toEqual([2, 1]);
    const created = await api.Issues.create(42, 'x');
    expect(created).toMatchObject({ title: 'x', description: null, milestone: null, assignees: [] });
    const closed = await api.Issues.edit(42, created.iid, { stateEvent: 'close' });
    expect(closed.state).toBe('closed');
    expect((await api.Issues.show(created.iid, { projectId: 42 })).state).toBe('closed');
    const notes = await api.IssueNotes.all(42, scene.hostile.iid, { sort: 'asc' });
    expect(notes.map((n) => n.body)).toEqual(['Looking into it.', 'More\u200B details <!-- hidden -->']);
    expect((await api.IssueNotes.create(42, scene.hostile.iid, 'hi')).body).toBe('hi');
  });

  it('works on merge requests: list, diffs, discussions, notes, duplicates', async () => {
    expect((await api.MergeRequests.all({ projectId: 42 })).map((m) => m.iid)).toEqual([1]);
    const mr = await api.MergeRequests.show(42, 1);
    expect(mr.diff_refs).toMatchObject({ head_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const diffs = await api.MergeRequests.allDiffs(42, 1);
    expect(diffs.map((d) => [d.new_path, d.new_file])).toEqual([
      ['src/app.ts', false],
      ['src/new.ts', true],
    ]);
    const discussions = await api.MergeRequestDiscussions.all(42, 1);
    expect(discussions.map((d) => d.notes?.length)).toEqual([2, 1]);
    expect((await api.MergeRequestNotes.create(42, 1, 'ok')).body).toBe('ok');
    expect((await api.MergeRequestNotes.all(42, 1)).length).toBe(4);
    expect(await failure(api.MergeRequests.create(42, 'feat', 'main', 'again'))).toMatchObject({
      status: 409,
      description: expect.stringContaining('Another open merge request already exists'),
    });
    expect((await api.MergeRequests.edit(42, 1, { description: 'updated' })).description).toBe('updated');
  });

  it('approves once (GitLab answers a second approval with 401) and merges', async () => {
    const approval = await api.MergeRequestApprovals.approve(42, 1);
    expect(approval).toMatchObject({ approved: true, user_has_approved: true });
    expect((await failure(api.MergeRequestApprovals.approve(42, 1))).status).toBe(401);
    const merged = await api.MergeRequests.merge(42, 1);
    expect(merged).toMatchObject({ state: 'merged', merged_at: expect.any(String) });
    expect(await api.RepositoryFiles.showRaw(42, 'src/new.ts', 'main')).toBe('export {};\n');
    expect(await failure(api.MergeRequests.merge(42, 1))).toMatchObject({ status: 405 });
  });

  it('lists pipelines and jobs and reads a job log, whole or by byte window', async () => {
    const pipelines = await api.Pipelines.all(42);
    expect(pipelines.map((p) => p.id)).toEqual([scene.mainPipeline.id]);
    expect((await api.Pipelines.show(42, scene.mainPipeline.id)).status).toBe('failed');
    const jobs = await api.Jobs.all(42, { pipelineId: scene.mainPipeline.id });
    expect(jobs.map((j) => [j.id, j.status])).toEqual([
      [986, 'failed'],
      [985, 'success'],
    ]);
    expect((await api.Jobs.show(42, 986)).name).toBe('test');
    const log = (await api.Jobs.showLog(42, 986)) as unknown as string;
    expect(log.length).toBeGreaterThan(512_000);
    expect(log.endsWith('Error: expected 42\n')).toBe(true);
    const window = await raw('/projects/42/jobs/986/trace?byte_offset=7&byte_limit=10');
    expect(window.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(window.text).toBe(log.slice(7, 17));
    expect((await raw('/projects/42/jobs/986/trace?byte_limit=600000')).status).toBe(400);
    await raw('/projects/grp%2Fsub%2Fproj/jobs/987/trace');
    expect(last('/jobs/987').rawPath).toBe('/api/v4/projects/grp%2Fsub%2Fproj/jobs/987/trace');
    expect((await raw('/projects/grp%2Fsub%2Fproj/jobs/1%3Fprivate_token=x/trace')).status).toBe(400);
  });

  it('answers effective membership with access levels (what lockdown checks)', async () => {
    const dev = gl.state.userId('dev');
    expect((await api.ProjectMembers.show(42, dev, { includeInherited: true })).access_level).toBe(30);
    expect(
      (await api.ProjectMembers.show(42, scene.tester.id, { includeInherited: true })).access_level,
    ).toBe(40);
    expect(
      (await failure(api.ProjectMembers.show(42, gl.state.userId('mallory'), { includeInherited: true })))
        .status,
    ).toBe(404);
  });

  it('serves a self-hosted instance at a path', async () => {
    const hosted = await startFakeGitLab({ prefix: '/gitlab/api/v4' });
    seedScene(hosted);
    const client = new Gitlab({ host: `${new URL(hosted.url).origin}/gitlab`, token: SCENE_TOKEN });
    const p = await client.Projects.show('grp/sub/proj');
    expect(p.web_url).toBe(`${new URL(hosted.url).origin}/gitlab/grp/sub/proj`);
    expect(hosted.api.requests.map((r) => r.rawPath)).toEqual(['/gitlab/api/v4/projects/grp%2Fsub%2Fproj']);
    await hosted.close();
  });

  it('creates and forks projects', async () => {
    const created = await api.Projects.create({ name: 'demo' });
    expect(created.path_with_namespace).toBe('tester/demo');
    expect(await failure(api.Projects.create({ name: 'demo' }))).toMatchObject({
      status: 400,
      description: expect.stringContaining('has already been taken'),
    });
    const fork = await api.Projects.fork('grp/proj');
    expect(fork).toMatchObject({ path_with_namespace: 'tester/proj', forked_from_project: { id: 42 } });
  });

  it('refuses bad and read-only tokens and anonymous writes in GitLab words', async () => {
    const bad = new Gitlab({ host: new URL(gl.url).origin, token: 'glpat-WRONG' });
    expect(await failure(bad.Users.showCurrentUser())).toMatchObject({
      status: 401,
      description: expect.stringContaining('401 Unauthorized'),
    });
    const bearer = new Gitlab({ host: new URL(gl.url).origin, oauthToken: SCENE_TOKEN });
    expect((await bearer.Users.showCurrentUser()).username).toBe('tester');
    const readOnly = await raw('/projects/42/issues', {
      method: 'POST',
      token: READ_ONLY_TOKEN,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x' }),
    });
    expect(readOnly.status).toBe(403);
    expect(JSON.parse(readOnly.text)).toMatchObject({ error: 'insufficient_scope', scope: 'api' });
    expect((await raw('/projects/42/issues', { method: 'POST', token: null })).status).toBe(401);
    expect((await raw('/projects/42', { token: null })).status).toBe(200);
  });

  it('stages GitLab rate limits, leaky 500s and failures after the write', async () => {
    gl.throttle({ match: { path: '/user' }, retryAfter: 1 });
    const limited = await raw('/user');
    expect(limited).toMatchObject({ status: 429, text: 'Retry later\n' });
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(Number(limited.headers.get('ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    gl.throttle({ match: { path: '/user' }, retryAfter: null, rateLimitHeaders: false, body: 'json' });
    const bare = await raw('/user');
    expect(bare.status).toBe(429);
    expect(bare.headers.get('retry-after')).toBeNull();
    expect(bare.headers.get('ratelimit-reset')).toBeNull();
    gl.failEchoingAuth({ method: 'POST', path: '/projects' });
    expect((await raw('/projects', { method: 'POST' })).text).toContain('TESTTOKEN123');
    const before = scene.proj.issues.length;
    gl.stage({
      match: { method: 'POST', path: '/projects/42/issues' },
      when: 'after',
      reply: () => ({ status: 502, body: { message: '502 Bad Gateway' } }),
    });
    // by fetch: @gitbeaker/rest itself would resend the POST after a 502
    const lost = await raw('/projects/42/issues', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'lost reply' }),
    });
    expect(lost.status).toBe(502);
    expect(scene.proj.issues.length).toBe(before + 1);
    gl.resetFaults();
  });
});

describe('review and CI routes (issue 29)', () => {
  const json = (method: string, path: string, body?: unknown) =>
    raw(path, {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
  const MR = '/projects/grp%2Fproj/merge_requests/1';

  it('threads: start one on a diff line (a bad line is 400 line_code), reply, resolve', async () => {
    const mr = JSON.parse((await raw(MR)).text) as { diff_refs: Record<string, string> };
    const position = {
      ...mr.diff_refs,
      position_type: 'text',
      new_path: 'src/app.ts',
      old_path: 'src/app.ts',
    };
    const bad = await json('POST', `${MR}/discussions`, {
      body: 'x',
      position: { ...position, new_line: 7 },
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).message.line_code).toContain('must be a valid line code');
    const made = await json('POST', `${MR}/discussions`, {
      body: 'On line 1',
      position: { ...position, new_line: 1 },
    });
    expect(made.status).toBe(201);
    const thread = JSON.parse(made.text) as {
      id: string;
      notes: Array<{ resolvable: boolean; position: unknown }>;
    };
    expect(thread.notes[0]).toMatchObject({
      resolvable: true,
      position: expect.objectContaining({ new_line: 1 }),
    });
    const reply = await json('POST', `${MR}/discussions/${thread.id}/notes`, { body: 'Reply' });
    expect(reply.status).toBe(201);
    const resolved = await json('PUT', `${MR}/discussions/${thread.id}`, { resolved: true });
    expect(JSON.parse(resolved.text).notes.every((n: { resolved: boolean }) => n.resolved)).toBe(true);
    expect((await json('PUT', `${MR}/discussions/${thread.id}`, {})).status).toBe(400);
    expect((await json('POST', `${MR}/discussions/${'0'.repeat(40)}/notes`, { body: 'x' })).status).toBe(404);
  });

  it('draft notes: create, list, delete, bulk publish (204), each user seeing only their own', async () => {
    const made = await json('POST', `${MR}/draft_notes`, { note: 'Pending' });
    expect(made.status).toBe(201);
    const second = JSON.parse((await json('POST', `${MR}/draft_notes`, { note: 'Second' })).text) as {
      id: number;
    };
    expect(JSON.parse((await raw(`${MR}/draft_notes`)).text)).toHaveLength(2);
    gl.state.tokens.set('glpat-DEVDRAFTS', { userId: gl.state.userId('dev'), scopes: ['api'] });
    expect(JSON.parse((await raw(`${MR}/draft_notes`, { token: 'glpat-DEVDRAFTS' })).text)).toEqual([]);
    expect((await json('DELETE', `${MR}/draft_notes/${second.id}`)).status).toBe(200);
    const before = scene.mr.notes.length;
    expect(
      (await json('POST', `${MR}/draft_notes/bulk_publish`, { reviewer_state: 'reviewed' })).status,
    ).toBe(204);
    expect(scene.mr.notes.length).toBe(before + 1);
    expect(JSON.parse((await raw(`${MR}/draft_notes`)).text)).toEqual([]);
  });

  it('pipelines: of a merge request, retry, cancel, create for a ref (a missing ref is 400)', async () => {
    const failed = gl.state.addPipeline(scene.proj, {
      ref: 'feat',
      user: 'dev',
      jobs: [{ name: 'test', status: 'failed' }],
    });
    const mine = JSON.parse((await raw(`${MR}/pipelines`)).text) as Array<{ id: number }>;
    expect(mine.map((x) => x.id)).toContain(failed.id);
    const retried = await json('POST', `/projects/grp%2Fproj/pipelines/${failed.id}/retry`);
    expect([retried.status, JSON.parse(retried.text).status]).toEqual([201, 'running']);
    const canceled = await json('POST', `/projects/grp%2Fproj/pipelines/${failed.id}/cancel`);
    expect(JSON.parse(canceled.text).status).toBe('canceled');
    const created = await json('POST', '/projects/grp%2Fproj/pipeline', {
      ref: 'main',
      variables: [{ key: 'A', value: '1' }],
    });
    expect([created.status, JSON.parse(created.text).source]).toEqual([201, 'api']);
    const missing = await json('POST', '/projects/grp%2Fproj/pipeline', { ref: 'nope' });
    expect([missing.status, JSON.parse(missing.text).message.base]).toEqual([400, ['Reference not found']]);
  });

  it('labels: sorted by name, searched, with issue and MR counts only when asked', async () => {
    gl.state.addLabel(scene.proj, 'priority::high', { color: '#dc143c', description: 'Do first' });
    const plain = JSON.parse((await raw('/projects/grp%2Fproj/labels?search=PRIORITY')).text);
    expect(plain).toEqual([expect.objectContaining({ name: 'priority::high', color: '#dc143c' })]);
    expect(plain[0]).not.toHaveProperty('open_issues_count');
    const counted = JSON.parse((await raw('/projects/grp%2Fproj/labels?with_counts=true')).text) as Array<{
      name: string;
      open_issues_count: number;
    }>;
    expect(counted.map((l) => l.name)).toEqual([...counted.map((l) => l.name)].sort());
    expect(counted.find((l) => l.name === 'bug')?.open_issues_count).toBeGreaterThan(0);
  });

  it('project search, blobs scope: fragments with path, ref and start line; 400 without search', async () => {
    const r = await raw('/projects/grp%2Fproj/search?scope=blobs&search=EXPORT&ref=feat&per_page=1');
    expect(r.headers.get('x-next-page')).toBe('2');
    expect(JSON.parse(r.text)).toEqual([
      expect.objectContaining({ path: 'src/app.ts', ref: 'feat', startline: 1, project_id: 42 }),
    ]);
    expect((await raw('/projects/grp%2Fproj/search?scope=blobs')).status).toBe(400);
  });

  it('search types: zoekt/advanced refused while the instance lacks them; group code search needs one', async () => {
    const zoekt = await raw('/projects/grp%2Fproj/search?scope=blobs&search=x&search_type=zoekt');
    expect([zoekt.status, JSON.parse(zoekt.text)]).toEqual([
      400,
      { message: '400 Bad request - Zoekt is not available' },
    ]);
    const group = await raw('/groups/grp/search?scope=blobs&search=odd%20name');
    expect([group.status, JSON.parse(group.text)]).toEqual([
      400,
      { error: 'Scope supported only with Elasticsearch' },
    ]);
    gl.codeSearch.advanced = true;
    try {
      const hits = JSON.parse(
        (await raw('/groups/grp/search?scope=blobs&search=odd%20name&search_type=advanced')).text,
      );
      expect(hits.map((h: { project_id: number }) => h.project_id)).toEqual([42, 43]);
      expect((await raw('/groups/nope/search?scope=blobs&search=x')).status).toBe(404);
    } finally {
      gl.codeSearch.advanced = false;
    }
  });
});

describe('fake GitLab against GitLab’s OpenAPI description', () => {
  const spec = gitlabSpec();

  it('documents its errata in specs/gitlab/ERRATA.md (generated from errata.ts)', () => {
    const page = new URL('../specs/gitlab/ERRATA.md', import.meta.url);
    if (process.env.REFMCP_WRITE_ERRATA) writeFileSync(page, renderErrata());
    expect(readFileSync(page, 'utf8')).toBe(renderErrata());
  });

  it('serves exactly the 56 described operations', () => {
    expect(gl.routes).toHaveLength(56);
    expect(undescribedRoutes(gl.routes, spec)).toEqual([]);
  });

  it('fails the check for a wrong field type and a wrong content type', async () => {
    const bad = recordTraffic('fake-gitlab-bad-');
    try {
      gl.stage({
        match: { path: '/projects/42' },
        when: 'after',
        reply: (_req, r) => ({ ...r, body: { ...(r?.body as object), id: 'forty-two' } }),
      });
      await raw('/projects/42');
      gl.stage({
        match: { path: '/projects/42/jobs/986/trace' },
        reply: () => ({ raw: 'log', headers: { 'content-type': 'application/x-log' } }),
      });
      await raw('/projects/42/jobs/986/trace');
      const report = checkTraffic(bad.read(), { gitlab: spec });
      expect(report.problems).toEqual([
        expect.stringMatching(/^GET \/projects\/\{id\} → 200: \/id: must be integer/),
        expect.stringMatching(
          /^GET \/projects\/\{id\}\/jobs\/\{job_id\}\/trace → 200: content type application\/x-log/,
        ),
      ]);
    } finally {
      bad.stop();
    }
  });

  it('validates every reply this file sent: declared operations and statuses, valid bodies', () => {
    const sent = traffic.read();
    const report = checkTraffic(sent, { gitlab: spec });
    expect(report.problems).toEqual([]);
    expect(report.validated).toBeGreaterThan(60);
    const reached = new Set(
      sent.filter((x) => x.route).map((x) => `${x.method} ${routeTemplate(x.route ?? '')}`),
    );
    expect(gl.routes.map((r) => r.join(' ')).filter((r) => !reached.has(r))).toEqual([]);
  });
});
