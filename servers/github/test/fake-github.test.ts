/**
 * The fake GitHub is checked against GitHub's official OpenAPI description (@octokit/openapi):
 * every route it serves exists there with that method, and every response body it gave while a
 * scenario exercised every route (successes and the errors tools rely on) validates against the
 * described schema for that status. Raw/diff/redirect answers are checked for a declared status.
 */

import { routeTemplate } from '@refmcp/test-harness';
import { type FakeGitHub, SCENE_TOKEN, seedScene, startFakeGitHub } from '@refmcp/test-harness/fakes/github';
import { githubSpec } from '@refmcp/test-harness/fakes/github/spec';
import { undescribedRoutes, validateReply } from '@refmcp/test-harness/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const spec = githubSpec();

interface Seen {
  method: string;
  route: string;
  status: number;
  body: unknown;
  json: boolean;
}

let gh: FakeGitHub;
const seen: Seen[] = [];

async function call(method: string, path: string, body?: unknown, accept = 'application/vnd.github+json') {
  const res = await fetch(`${gh.url}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      authorization: `Bearer ${SCENE_TOKEN}`,
      accept,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('application/json');
  const recorded = gh.api.requests.at(-1);
  if (!recorded?.route) throw new Error(`${method} ${path}: no route answered (${res.status})`);
  seen.push({
    method,
    route: routeTemplate(recorded.route),
    status: res.status,
    body: json ? JSON.parse(text) : text,
    json,
  });
  return { status: res.status, body: json ? JSON.parse(text) : text };
}

beforeAll(async () => {
  gh = await startFakeGitHub();
  const { pr } = seedScene(gh);
  const r = '/repos/acme/demo';
  await call('GET', '/user');
  await call('POST', '/user/repos', { name: 'fresh', description: 'new', auto_init: true });
  await call('GET', r);
  await call('GET', '/repos/acme/private-notes'); // 404
  await call('POST', `${r}/forks`, {});
  await call('GET', `${r}/branches`);
  await call('GET', `${r}/tags`);
  await call('GET', `${r}/releases`);
  await call('GET', `${r}/releases/latest`);
  await call('GET', `${r}/collaborators/maintainer/permission`);
  await call('GET', `${r}/commits?per_page=2`);
  const head = (await call('GET', `${r}/commits/main`)).body as { sha: string };
  await call('GET', `${r}/commits/feature/status`);
  await call('GET', `${r}/commits/feature/pulls`); // the feature pull request's head
  await call('GET', `${r}/commits/nope`); // 422
  await call('GET', `${r}/contents/README.md`);
  await call('GET', `${r}/contents/README.md`, undefined, 'application/vnd.github.raw+json');
  await call('GET', `${r}/contents/src`);
  await call('GET', `${r}/contents/`);
  await call('GET', `${r}/contents/missing.md`); // 404
  const created = (
    await call('PUT', `${r}/contents/new.md`, {
      message: 'add',
      content: Buffer.from('x').toString('base64'),
    })
  ).body as { content: { sha: string } };
  await call('PUT', `${r}/contents/new.md`, { message: 'update', content: 'eA==' }); // 422 sha missing
  await call('PUT', `${r}/contents/new.md`, { message: 'update', content: 'eQ==', sha: created.content.sha });
  await call('PUT', `${r}/contents/new.md`, { message: 'stale', content: 'eg==', sha: created.content.sha }); // 409
  const current = (await call('GET', `${r}/contents/new.md`)).body as { sha: string };
  await call('DELETE', `${r}/contents/new.md`, { message: 'rm', sha: current.sha });
  await call('GET', `${r}/git/ref/heads/main`);
  await call('POST', `${r}/git/refs`, { ref: 'refs/heads/topic', sha: head.sha });
  const tree = (
    await call('POST', `${r}/git/trees`, {
      base_tree: (await call('GET', `${r}/git/trees/main`)).body.sha,
      tree: [{ path: 'x.txt', mode: '100644', type: 'blob', content: 'x' }],
    })
  ).body as { sha: string };
  await call('GET', `${r}/git/trees/main?recursive=1`);
  await call('GET', `${r}/git/commits/${head.sha}`);
  const commit = (
    await call('POST', `${r}/git/commits`, { message: 'm', tree: tree.sha, parents: [head.sha] })
  ).body as { sha: string };
  await call('PATCH', `${r}/git/refs/heads/topic`, { sha: commit.sha });
  await call('GET', '/repos/octo/empty/git/ref/heads/main'); // 409 empty
  await call('GET', `${r}/issues?state=all&per_page=2`);
  await call('POST', `${r}/issues`, { title: 'New', body: 'b', labels: ['x'] });
  await call('POST', `${r}/issues`, {}); // 422
  await call('GET', `${r}/issues/1`);
  await call('PATCH', `${r}/issues/2`, { state: 'closed' });
  await call('GET', `${r}/issues/1/comments`);
  await call('POST', `${r}/issues/1/comments`, { body: 'c' });
  await call('GET', `${r}/labels?per_page=1`);
  await call('POST', `${r}/issues/1/labels`, { labels: ['area/ui'] });
  await call('DELETE', `${r}/issues/1/labels/area%2Fui`);
  await call('DELETE', `${r}/issues/1/labels/nope`); // 404
  const sub = (await call('GET', `${r}/issues/2`)).body as { id: number };
  await call('POST', `${r}/issues/1/sub_issues`, { sub_issue_id: sub.id });
  await call('POST', `${r}/issues/3/sub_issues`, { sub_issue_id: sub.id }); // 422: has a parent
  await call('GET', `${r}/issues/1/sub_issues`);
  await call('DELETE', `${r}/issues/1/sub_issue`, { sub_issue_id: sub.id });
  await call('GET', `${r}/pulls?state=all`);
  await call('POST', `${r}/pulls`, { title: 'Topic', head: 'topic', base: 'main' });
  await call('GET', `${r}/pulls/${pr.number}`);
  await call('GET', `${r}/pulls/${pr.number}`, undefined, 'application/vnd.github.diff');
  await call('PATCH', `${r}/pulls/${pr.number}`, { title: 'Improve app (v2)' });
  await call('GET', `${r}/pulls/${pr.number}/files`);
  const reviewComments = (await call('GET', `${r}/pulls/${pr.number}/comments`)).body as { id: number }[];
  await call('POST', `${r}/pulls/${pr.number}/comments/${reviewComments[0]?.id}/replies`, { body: 'reply' });
  await call('GET', `${r}/pulls/${pr.number}/reviews`);
  await call('POST', `${r}/pulls/${pr.number}/reviews`, {
    body: 'ok',
    event: 'COMMENT',
    comments: [{ path: 'src/app.ts', line: 1, body: 'hm' }],
  });
  await call('PUT', `${r}/pulls/${pr.number}/update-branch`, {});
  await call('PUT', `${r}/pulls/${pr.number}/merge`, { merge_method: 'merge' });
  await call('PUT', `${r}/pulls/${pr.number}/merge`, {}); // 405
  await call('GET', '/search/repositories?q=demo');
  await call('GET', '/search/code?q=answer+repo:acme/demo');
  await call('GET', '/search/issues?q=build+is:issue');
  await call('GET', '/search/users?q=octo');
  const runs = (await call('GET', `${r}/actions/runs`)).body as { workflow_runs: { id: number }[] };
  const runId = runs.workflow_runs[0]?.id;
  await call('GET', `${r}/actions/runs/${runId}`);
  const jobs = (await call('GET', `${r}/actions/runs/${runId}/jobs`)).body as { jobs: { id: number }[] };
  await call('GET', `${r}/actions/jobs/${jobs.jobs[0]?.id}`);
  await call('GET', `${r}/actions/jobs/${jobs.jobs[0]?.id}/logs`);
  await call('GET', `${r}/commits/main/check-runs?filter=latest`);
  await call('GET', `${r}/check-runs/${jobs.jobs[0]?.id}`);
  await call('POST', `${r}/actions/runs/${runId}/cancel`); // 409: completed
  await call('POST', `${r}/actions/runs/${runId}/rerun-failed-jobs`, {});
  await call('POST', `${r}/actions/runs/${runId}/cancel`);
  await call('POST', `${r}/actions/runs/${runId}/rerun`, {});
  await call('POST', `${r}/actions/workflows/ci.yml/dispatches`, {
    ref: 'main',
    inputs: { dry_run: 'true' },
  });
}, 60_000);
afterAll(() => gh.close());

describe('fake GitHub vs the OpenAPI description', () => {
  it('serves only routes that exist in the description, with that method', () => {
    const missing = undescribedRoutes(gh.routes, spec);
    expect(missing).toEqual([]);
    expect(gh.routes.length).toBeGreaterThanOrEqual(45);
  });

  it('the scenario exercised every route with a success', () => {
    const ok = new Set(seen.filter((s) => s.status < 400).map((s) => `${s.method} ${s.route}`));
    expect(gh.routes.map((r) => r.join(' ')).filter((r) => !ok.has(r))).toEqual([]);
  });

  it('every status answered is declared, and every JSON body validates against its schema', () => {
    const problems: string[] = [];
    const overlaps: string[] = [];
    for (const s of seen) {
      const where = `${s.method} ${s.route} → ${s.status}`;
      if (!spec.declaredStatuses(s.method, s.route).includes(String(s.status))) {
        problems.push(`${where}: status not declared`);
        continue;
      }
      if (!s.json) continue;
      if (!spec.responseSchema(s.method, s.route, s.status)) {
        problems.push(`${where}: JSON body where the description declares none`);
        continue;
      }
      const errors = validateReply(spec, s.method, s.route, s.status, s.body, overlaps);
      if (errors.length) problems.push(`${where}: ${errors.slice(0, 5).join('; ')}`);
    }
    expect(problems).toEqual([]);
    expect(seen.filter((s) => s.json).length).toBeGreaterThan(50);
    // The one place the description's oneOf alternatives overlap (validateReply in test-harness/src/spec/check.ts).
    expect(overlaps.map((o) => o.split(':')[0])).toEqual(['PUT /repos/{owner}/{repo}/contents/{path} 409']);
  }, 60_000); // ajv compiles each described response once: a few seconds in all
});
