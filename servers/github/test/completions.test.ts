/**
 * Completion (completion/complete) of the repo:// template and the prompts' arguments, fenced by
 * --repos (a repository outside never completes, and nothing inside it is requested), bounded,
 * and cut off: a search that hangs answers empty (MCP_COMPLETION_TIMEOUT_MS) and is not cached.
 * The workflow prompts: listed, rendered naming their tools, arguments validated, scope refused.
 * Through the built server against the fake GitHub, in both protocol eras.
 */
import type { GetPromptResult } from '@modelcontextprotocol/client';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

const TEMPLATE = 'repo://{owner}/{repo}/contents{/path*}';

let gh: FakeGitHub;
let scoped: Awaited<ReturnType<typeof startServer>>;
let modern: Awaited<ReturnType<typeof startServer>>;
let open: Awaited<ReturnType<typeof startServer>>;
// Generous: a loaded machine must not turn a fast fake's answer into a cut-off.
const patient = { env: { MCP_COMPLETION_TIMEOUT_MS: '60000' } };
beforeAll(async () => {
  ({ gh } = await startScene());
  // All toolsets: why_is_ci_red is listed only with the actions toolset (get_ci_failures) served.
  const repos = ['--repos', 'acme/demo,octo/*', '--toolsets', 'all'];
  [scoped, modern, open] = await Promise.all([
    startServer(gh, repos, patient),
    startServer(gh, repos, { ...patient, era: 'modern' }),
    // A cut-off short enough for a test, long enough for the request to leave on a loaded machine.
    startServer(gh, [], { env: { MCP_COMPLETION_TIMEOUT_MS: '5000' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([scoped?.close(), modern?.close(), open?.close()]);
  await gh?.close();
});

type Conn = typeof scoped;
const template = (conn: Conn, name: string, value: string, args: Record<string, string> = {}) =>
  conn.client.complete({
    ref: { type: 'ref/resource', uri: TEMPLATE },
    argument: { name, value },
    context: { arguments: args },
  });
const prompt = (conn: Conn, prompt: string, name: string, value: string, args: Record<string, string> = {}) =>
  conn.client.complete({
    ref: { type: 'ref/prompt', name: prompt },
    argument: { name, value },
    context: { arguments: args },
  });

describe('completions within --repos', () => {
  it('declares the completions capability', () => {
    expect(scoped.client.getServerCapabilities()?.completions).toEqual({});
  });

  it.each(['legacy', 'modern'])('owners and repositories come from the scope only (%s era)', async (era) => {
    const conn = era === 'legacy' ? scoped : modern;
    expect((await template(conn, 'owner', '')).completion.values.sort()).toEqual(['acme', 'octo']);
    gh.api.clearRequests();
    // acme/demo is listed exactly: acme's other repositories (private-notes) are never offered or searched.
    expect((await template(conn, 'repo', '', { owner: 'acme' })).completion.values).toEqual(['demo']);
    expect(gh.api.requestsMatching({ path: '/search/repositories' })).toEqual([]);
    // octo/* is searched, within octo.
    expect((await template(conn, 'repo', '', { owner: 'octo' })).completion.values).toEqual(['empty']);
    expect((await template(conn, 'repo', '', { owner: 'evil' })).completion.values).toEqual([]);
  });

  it('paths list the typed directory of a repository inside the scope, and nothing outside', async () => {
    const root = await template(scoped, 'path', '', { owner: 'acme', repo: 'demo' });
    expect(root.completion.values).toEqual(expect.arrayContaining(['README.md', 'src', 'docs']));
    expect(root.completion.hasMore).toBe(false);
    expect(
      (await template(scoped, 'path', 'src/a', { owner: 'acme', repo: 'demo' })).completion.values,
    ).toEqual(['src/app.ts']);
    gh.api.clearRequests();
    const outside = await template(scoped, 'path', '', { owner: 'acme', repo: 'private-notes' });
    expect(outside.completion.values).toEqual([]);
    expect(gh.api.requestsMatching({ path: '/repos/acme/private-notes' })).toEqual([]);
  });

  it('prompt arguments complete: owner/name, branches and open pull requests', async () => {
    const full = await prompt(scoped, 'create_pr_description', 'repo', '');
    expect(full.completion.values).toContain('acme/demo');
    expect(full.completion.values).not.toContain('acme/private-notes');
    const branches = await prompt(scoped, 'create_pr_description', 'head_branch', 'fe', {
      repo: 'acme/demo',
    });
    expect(branches.completion.values).toEqual(['feature']);
    const pulls = await prompt(scoped, 'review_pull_request', 'pull_number', '', {
      owner: 'acme',
      repo: 'demo',
    });
    expect(pulls.completion.values.length).toBeGreaterThan(0);
    expect(pulls.completion.values.every((v) => /^\d+$/.test(v))).toBe(true);
    const refs = await prompt(scoped, 'why_is_ci_red', 'ref', '', { owner: 'acme', repo: 'private-notes' });
    expect(refs.completion.values).toEqual([]);
  });

  it('an argument without a completer answers empty; an unknown prompt is refused', async () => {
    expect((await prompt(scoped, 'create_pr_description', 'commit_messages', 'x')).completion.values).toEqual(
      [],
    );
    await expect(prompt(scoped, 'no_such_prompt', 'x', '')).rejects.toThrow(/not found/);
  });
});

describe('completion against a hanging API', () => {
  it('answers empty at the cut-off, does not cache that, and answers the next question', async () => {
    gh.api.clearRequests();
    const hangs = (req: { path: string; query: URLSearchParams }) =>
      req.path === '/search/users' && (req.query.get('q') ?? '').startsWith('oct');
    gh.api.inject({ status: 200, hang: true, match: hangs, times: 1 });
    const cut = await template(open, 'owner', 'oct');
    expect(cut.completion).toEqual({ values: [], hasMore: false });
    // The API was asked and never answered: the empty answer is the cut-off's.
    expect(gh.api.requestsMatching(hangs)).toHaveLength(1);
    // It was not cached: asking again asks the API again, which now answers.
    const again = await template(open, 'owner', 'oct');
    expect(gh.api.requestsMatching(hangs)).toHaveLength(2);
    expect(again.completion.values).toContain('octo');
  });
});

describe('workflow prompts', () => {
  const text = (r: GetPromptResult) => (r.messages[0]?.content as { text?: string } | undefined)?.text ?? '';

  it('lists the prompts with their arguments', async () => {
    const { prompts } = await scoped.client.listPrompts();
    expect(
      Object.fromEntries(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])])),
    ).toEqual({
      create_pr_description: [
        ['repo', true],
        ['base_branch', true],
        ['head_branch', true],
        ['commit_messages', true],
      ],
      review_pull_request: [
        ['owner', true],
        ['repo', true],
        ['pull_number', true],
      ],
      why_is_ci_red: [
        ['owner', true],
        ['repo', true],
        ['ref', false],
        ['pull_number', false],
      ],
    });
  });

  it('review_pull_request and why_is_ci_red name the tools to use', async () => {
    const review = text(
      await scoped.client.getPrompt({
        name: 'review_pull_request',
        arguments: { owner: 'acme', repo: 'demo', pull_number: '1' },
      }),
    );
    for (const tool of [
      'get_pull_request',
      'get_pull_request_files',
      'get_pull_request_status',
      'get_ci_failures',
    ])
      expect(review).toContain(tool);
    const ci = text(
      await scoped.client.getPrompt({
        name: 'why_is_ci_red',
        arguments: { owner: 'acme', repo: 'demo', pull_number: '1' },
      }),
    );
    expect(ci).toContain('get_ci_failures (owner "acme", repo "demo", pull_number 1)');
  });

  it('with the default toolsets, lists no why_is_ci_red and names no actions tool', async () => {
    const { prompts } = await open.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['create_pr_description', 'review_pull_request']);
    const review = text(
      await open.client.getPrompt({
        name: 'review_pull_request',
        arguments: { owner: 'acme', repo: 'demo', pull_number: '1' },
      }),
    );
    expect(review).toContain('2. get_pull_request_status for the checks.');
    for (const tool of ['get_ci_failures', 'get_job_logs', 'list_workflow_runs'])
      expect(review).not.toContain(tool);
    await expect(
      open.client.getPrompt({ name: 'why_is_ci_red', arguments: { owner: 'acme', repo: 'demo' } }),
    ).rejects.toThrow(/why_is_ci_red/);
  });

  it('refuses bad arguments and a repository outside --repos (-32602)', async () => {
    await expect(
      scoped.client.getPrompt({
        name: 'review_pull_request',
        arguments: { owner: 'acme', repo: 'demo', pull_number: 'one' },
      }),
    ).rejects.toThrow(/pull_number|pull request number/);
    await expect(
      scoped.client.getPrompt({ name: 'review_pull_request', arguments: { owner: 'acme', repo: 'demo' } }),
    ).rejects.toThrow(/pull_number/);
    await expect(
      scoped.client.getPrompt({
        name: 'why_is_ci_red',
        arguments: { owner: 'acme', repo: 'private-notes' },
      }),
    ).rejects.toThrow(/outside the repositories/);
  });
});
