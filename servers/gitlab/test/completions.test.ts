/**
 * The workflow prompts (review_merge_request, why_is_ci_red) and the completion of their
 * arguments, fenced by --projects: a project outside never completes and nothing inside it is
 * requested. Through the built server against the fake GitLab, in both protocol eras.
 */
import type { GetPromptResult } from '@modelcontextprotocol/client';
import type { FakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gl: FakeGitLab;
let scoped: Awaited<ReturnType<typeof startServer>>;
let modern: Awaited<ReturnType<typeof startServer>>;
let open: Awaited<ReturnType<typeof startServer>>;
let plain: Awaited<ReturnType<typeof startServer>>;
// Generous: a loaded machine must not turn a fast fake's answer into a cut-off.
const env = { MCP_COMPLETION_TIMEOUT_MS: '60000' };
beforeAll(async () => {
  ({ gl } = await startScene());
  // All toolsets: why_is_ci_red is listed only with the pipelines toolset (get_ci_failures) served.
  const all = ['--toolsets', 'all'];
  [scoped, modern, open, plain] = await Promise.all([
    startServer(gl, ['--projects', 'grp/proj', ...all], { env }),
    startServer(gl, ['--projects', 'grp/proj', ...all], { env, era: 'modern' }),
    startServer(gl, all, { env }),
    startServer(gl, ['--projects', 'grp/proj'], { env }),
  ]);
});
afterAll(async () => {
  await Promise.all([scoped?.close(), modern?.close(), open?.close(), plain?.close()]);
  await gl?.close();
});

type Conn = typeof scoped;
const complete = (
  conn: Conn,
  prompt: string,
  name: string,
  value: string,
  args: Record<string, string> = {},
) =>
  conn.client.complete({
    ref: { type: 'ref/prompt', name: prompt },
    argument: { name, value },
    context: { arguments: args },
  });
const text = (r: GetPromptResult) => (r.messages[0]?.content as { text?: string } | undefined)?.text ?? '';

describe('completions', () => {
  it.each(['legacy', 'modern'])('projects come from --projects only (%s era)', async (era) => {
    const conn = era === 'legacy' ? scoped : modern;
    expect(conn.client.getServerCapabilities()?.completions).toEqual({});
    expect((await complete(conn, 'review_merge_request', 'project_id', '')).completion.values).toEqual([
      'grp/proj',
    ]);
    expect((await complete(conn, 'review_merge_request', 'project_id', 'empty')).completion.values).toEqual(
      [],
    );
  });

  it('without a scope, the projects the token is a member of', async () => {
    const values = (await complete(open, 'why_is_ci_red', 'project_id', '')).completion.values;
    expect(values).toEqual(expect.arrayContaining(['grp/proj', 'grp/sub/proj', 'tester/empty']));
    expect(values).not.toContain('upstream/private');
  });

  it('branches and merge requests of a project inside the scope; nothing requested for one outside', async () => {
    const refs = await complete(scoped, 'why_is_ci_red', 'ref', '', { project_id: 'grp/proj' });
    expect(refs.completion.values).toContain('feat');
    const mrs = await complete(scoped, 'review_merge_request', 'merge_request_iid', '', {
      project_id: 'grp/proj',
    });
    expect(mrs.completion.values.length).toBeGreaterThan(0);
    expect(mrs.completion.values.every((v) => /^\d+$/.test(v))).toBe(true);
    gl.api.clearRequests();
    for (const project_id of ['tester/empty', '45']) {
      expect((await complete(scoped, 'why_is_ci_red', 'ref', '', { project_id })).completion.values).toEqual(
        [],
      );
      expect(
        (await complete(scoped, 'review_merge_request', 'merge_request_iid', '', { project_id })).completion
          .values,
      ).toEqual([]);
    }
    expect(gl.api.requests.filter((r) => r.path.includes('/projects/'))).toEqual([]);
  });
});

describe('workflow prompts', () => {
  it('lists review_merge_request and why_is_ci_red with their arguments', async () => {
    const { prompts } = await scoped.client.listPrompts();
    expect(
      Object.fromEntries(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])])),
    ).toEqual({
      review_merge_request: [
        ['project_id', true],
        ['merge_request_iid', true],
      ],
      why_is_ci_red: [
        ['project_id', true],
        ['ref', false],
        ['merge_request_iid', false],
      ],
    });
  });

  it('name the tools to use', async () => {
    const review = text(
      await scoped.client.getPrompt({
        name: 'review_merge_request',
        arguments: { project_id: 'grp/proj', merge_request_iid: '1' },
      }),
    );
    for (const tool of [
      'get_merge_request',
      'get_merge_request_diffs',
      'get_ci_failures',
      'list_merge_request_discussions',
    ])
      expect(review).toContain(tool);
    const ci = text(
      await scoped.client.getPrompt({
        name: 'why_is_ci_red',
        arguments: { project_id: 'grp/proj', ref: 'main' },
      }),
    );
    expect(ci).toContain('get_ci_failures (project_id "grp/proj", ref "main")');
  });

  it('with the default toolsets, lists no why_is_ci_red and names no pipelines tool', async () => {
    const { prompts } = await plain.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['review_merge_request']);
    const review = text(
      await plain.client.getPrompt({
        name: 'review_merge_request',
        arguments: { project_id: 'grp/proj', merge_request_iid: '1' },
      }),
    );
    expect(review).toContain('2. list_merge_request_discussions');
    for (const tool of ['get_ci_failures', 'get_job_log', 'list_pipelines'])
      expect(review).not.toContain(tool);
    await expect(
      plain.client.getPrompt({ name: 'why_is_ci_red', arguments: { project_id: 'grp/proj' } }),
    ).rejects.toThrow(/why_is_ci_red/);
  });

  it('refuses bad arguments and a project outside --projects (-32602)', async () => {
    await expect(
      scoped.client.getPrompt({
        name: 'review_merge_request',
        arguments: { project_id: 'grp/proj', merge_request_iid: '!1' },
      }),
    ).rejects.toThrow(/merge request iid/);
    await expect(
      scoped.client.getPrompt({ name: 'why_is_ci_red', arguments: { project_id: '../x' } }),
    ).rejects.toThrow(/project/);
    await expect(
      scoped.client.getPrompt({ name: 'why_is_ci_red', arguments: { project_id: 'tester/empty' } }),
    ).rejects.toThrow(/outside the projects/);
  });
});
