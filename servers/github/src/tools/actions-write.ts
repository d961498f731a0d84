/**
 * The actions toolset, writing (off by default, as GitHub's own server keeps Actions; left out
 * under --read-only like every write): re-run a workflow run (all jobs or the failed ones), cancel
 * it, and trigger a workflow (`workflow_dispatch` with inputs). GitHub's names kept
 * (rerun_workflow_run, rerun_failed_jobs, cancel_workflow_run, run_workflow).
 */
import { OPEN_WORLD_HINTS } from '@refmcp/shared';
import { safeString, z } from '@refmcp/shared/schema';
import { respond } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import { repoPath, repoTool, scopeNote } from './common.js';

const done = z.object({ repository: z.string(), runId: z.number().optional(), message: z.string() });

export function actionsWriteTools(config: Config): GitHubTool[] {
  const scope = scopeNote(config);
  const runTool = (
    name: string,
    title: string,
    what: string,
    suffix: string,
    status: string,
    annotations = OPEN_WORLD_HINTS.additive,
  ) =>
    repoTool(config, {
      name,
      title,
      toolset: 'actions',
      description: `${what}${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        run_id: arg.number('Workflow run id'),
      }),
      outputSchema: done,
      annotations,
      handler: async ({ owner, repo, run_id }, { signal }) => {
        await config.github.request({
          method: 'POST',
          path: `${repoPath(config, owner, repo)}/actions/runs/${run_id}/${suffix}`,
          signal,
        });
        const message = `Run ${run_id} of ${owner}/${repo}: ${status}. get_workflow_run shows its progress.`;
        return respond({ repository: `${owner}/${repo}`, runId: run_id, message }, [message]);
      },
    });
  return [
    runTool(
      'rerun_workflow_run',
      'Re-run workflow run',
      'Re-run every job of a workflow run.',
      'rerun',
      're-run requested',
    ),
    runTool(
      'rerun_failed_jobs',
      'Re-run failed jobs',
      'Re-run the failed jobs of a workflow run (and the jobs that depend on them).',
      'rerun-failed-jobs',
      're-run of its failed jobs requested',
    ),
    runTool(
      'cancel_workflow_run',
      'Cancel workflow run',
      'Cancel a queued or in-progress workflow run.',
      'cancel',
      'cancel requested',
      OPEN_WORLD_HINTS.destructiveIdempotent,
    ),
    repoTool(config, {
      name: 'run_workflow',
      title: 'Run workflow',
      toolset: 'actions',
      description: `Trigger a workflow that has a workflow_dispatch trigger, on a branch or tag, with its inputs.${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        workflow_id: safeString({ min: 1, max: 255 })
          .regex(/^(?:\d+|[\w.-]+\.ya?ml)$/, 'must be a workflow id or its file name (ci.yml)')
          .describe('Workflow id or file name (ci.yml)'),
        ref: arg.refName('Branch or tag to run on'),
        inputs: z
          .array(
            z.strictObject({ name: safeString({ min: 1, max: 100 }), value: safeString({ max: 10_000 }) }),
          )
          .max(25)
          .optional()
          .describe('workflow_dispatch inputs as name/value pairs (at most 25)'),
      }),
      outputSchema: done,
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ owner, repo, workflow_id, ref, inputs }, { signal }) => {
        await config.github.request({
          method: 'POST',
          path: `${repoPath(config, owner, repo)}/actions/workflows/${encodeURIComponent(workflow_id)}/dispatches`,
          body: {
            ref,
            ...(inputs ? { inputs: Object.fromEntries(inputs.map((i) => [i.name, i.value])) } : {}),
          },
          signal,
        });
        const message = `Workflow ${workflow_id} of ${owner}/${repo} dispatched on ${ref}. list_workflow_runs (event: workflow_dispatch) shows the new run.`;
        return respond({ repository: `${owner}/${repo}`, message }, [message]);
      },
    }),
  ];
}
