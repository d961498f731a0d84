/**
 * The fake GitHub's GraphQL endpoint: every query is validated against GitHub's public schema
 * (@octokit/graphql-schema) before it runs — a malformed or off-schema query gets GitHub's
 * {"errors": [...]} answer and is kept in `graphqlRejected` — valid ones answer from the fake's
 * state, mutations change it, anonymous requests get 401, and its exchanges stay out of the REST
 * spec check (they are not OpenAPI operations).
 */
import { type FakeGitHub, SCENE_TOKEN, seedScene, startFakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let gh: FakeGitHub;
let endpoint = '';

beforeAll(async () => {
  gh = await startFakeGitHub();
  seedScene(gh);
  endpoint = `${new URL(gh.url).origin}/api/graphql`;
  gh.checkQuery('{ viewer { login } }'); // builds the schema here, not inside a test's time
});
afterAll(async () => {
  await gh?.close();
});

async function post(
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = SCENE_TOKEN,
) {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: res.status,
    // biome-ignore lint/suspicious/noExplicitAny: each test reads the shape its own query asked for
    body: (await res.json()) as { data?: Record<string, any>; errors?: { message: string; type?: string }[] },
  };
}

const THREADS = `query($n: Int!) { repository(owner: "acme", name: "demo") { pullRequest(number: $n) {
  reviewThreads(first: 10) { totalCount nodes { id isResolved path line comments(first: 5) { nodes { databaseId body author { login } } } } } } } }`;

describe('fake GitHub GraphQL', () => {
  it('refuses a malformed query and an off-schema field with GitHub-style errors, and records them', async () => {
    const before = gh.graphqlRejected.length;
    const broken = await post(
      'query { repository(owner: "acme", name: "demo") { pullRequest(number: 1) { id }',
    );
    expect(broken.status).toBe(200);
    expect(broken.body.data).toBeUndefined();
    expect(broken.body.errors?.[0]?.message).toMatch(/Syntax Error/);
    const offSchema = await post(
      'query { repository(owner: "acme", name: "demo") { reviewThreadz { id } } }',
    );
    expect(offSchema.body.errors?.[0]?.message).toContain(
      'Cannot query field "reviewThreadz" on type "Repository"',
    );
    const missingArg = await post('mutation { resolveReviewThread(input: {}) { thread { id } } }');
    expect(missingArg.body.errors?.[0]?.message).toMatch(/threadId/);
    expect(gh.graphqlRejected.length).toBe(before + 3);
    expect(gh.checkQuery('{ viewer { login } }').errors).toBeUndefined();
  });

  it('answers a valid query from the state; resolveReviewThread changes it', async () => {
    const pr = gh.state.repo('acme', 'demo')?.issues.find((i) => i.pull);
    const listed = await post(THREADS, { n: pr?.number });
    expect(listed.body.errors).toBeUndefined();
    const thread = listed.body.data?.repository.pullRequest.reviewThreads.nodes[0];
    expect(thread).toMatchObject({ isResolved: false, path: 'src/app.ts', line: 1 });
    expect(thread.comments.nodes[0]).toMatchObject({ body: 'Nit: name', author: { login: 'maintainer' } });
    const resolved = await post(
      'mutation($id: ID!) { resolveReviewThread(input: { threadId: $id }) { thread { isResolved resolvedBy { login } } } }',
      {
        id: thread.id,
      },
    );
    expect(resolved.body.data?.resolveReviewThread.thread).toEqual({
      isResolved: true,
      resolvedBy: { login: 'octo' },
    });
    expect(pr?.pull?.reviewComments[0]?.resolvedBy).toBe('octo');
  });

  it('addPullRequestReviewThread places no thread on a line outside the diff (GitHub drops it)', async () => {
    const pr = gh.state.repo('acme', 'demo')?.issues.find((i) => i.pull);
    const rest = await fetch(`${new URL(gh.url).origin}/api/v3/repos/acme/demo/pulls/${pr?.number}/reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `bearer ${SCENE_TOKEN}` },
      body: JSON.stringify({}),
    });
    expect(rest.status).toBe(200);
    const pending = await post(
      'query($n: Int!) { repository(owner: "acme", name: "demo") { pullRequest(number: $n) { reviews(first: 5, states: [PENDING]) { nodes { id } } } } }',
      { n: pr?.number },
    );
    const review = pending.body.data?.repository.pullRequest.reviews.nodes[0]?.id;
    const ADD =
      'mutation($r: ID!, $line: Int) { addPullRequestReviewThread(input: { pullRequestReviewId: $r, path: "src/app.ts", body: "x", line: $line }) { thread { line } } }';
    const outside = await post(ADD, { r: review, line: 999 });
    expect(outside.body.errors).toBeUndefined();
    expect(outside.body.data?.addPullRequestReviewThread.thread).toBeNull();
    const inside = await post(ADD, { r: review, line: 1 });
    expect(inside.body.data?.addPullRequestReviewThread.thread).toEqual({ line: 1 });
  });

  it('NOT_FOUND for a missing pull request; 401 without a token; no REST traffic recorded', async () => {
    const missing = await post(THREADS, { n: 999 });
    expect(missing.body.errors?.[0]).toMatchObject({
      type: 'NOT_FOUND',
      path: ['repository', 'pullRequest'],
    });
    expect((await post('{ viewer { login } }', {}, null)).status).toBe(401);
    expect((await post('{ viewer { login } }', {}, 'wrong')).status).toBe(401);
    const graphqlRequests = gh.api.requests.filter((r) => r.rawPath === '/api/graphql');
    expect(graphqlRequests.length).toBeGreaterThan(0);
    expect(graphqlRequests.every((r) => r.route === undefined)).toBe(true);
  });
});
