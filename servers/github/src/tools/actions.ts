/**
 * The actions toolset (read-only, off by default): workflow runs, a run, its jobs, and the tail
 * of a job's log. Logs are downloaded through GitHub's redirect to its log storage (fetch drops
 * the Authorization header on that cross-origin hop) and are untrusted text, sanitised.
 */
import { count, OPEN_WORLD_HINTS, pageFields, pageLine } from '@refmcp/shared';
import { safeString, z } from '@refmcp/shared/schema';
import { block, neutralizedField, respond, tailLines, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { jobShape, renderJob, renderRun, runShape, toJob, toRun } from '../format/actions.js';
import { pageShape } from '../format/common.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import { listPage, repoPath, repoTool, scopeNote } from './common.js';

/** The last lines of a log within a byte budget (shared; kept here under its old name). */
export const tail = tailLines;

export function actionsTools(config: Config): GitHubTool[] {
  const scope = scopeNote(config);
  const { budgets } = config;
  return [
    repoTool(config, {
      name: 'list_workflow_runs',
      title: 'List workflow runs',
      toolset: 'actions',
      description: `List GitHub Actions workflow runs of a repository, newest first, filtered by branch, status/conclusion, event or actor, paged.${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        branch: arg.branch('Only runs on this branch').optional(),
        status: z
          .enum([
            'completed',
            'action_required',
            'cancelled',
            'failure',
            'neutral',
            'skipped',
            'stale',
            'success',
            'timed_out',
            'in_progress',
            'queued',
            'requested',
            'waiting',
            'pending',
          ])
          .optional()
          .describe('Only runs with this status or conclusion'),
        event: safeString({ max: 100 })
          .optional()
          .describe('Only runs triggered by this event (push, pull_request, …)'),
        actor: arg.owner().describe('Only runs triggered by this user').optional(),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({
        repository: z.string(),
        totalCount: count(),
        runs: z.array(runShape),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, branch, status, event, actor, page, per_page }, { signal }) => {
        const list = await listPage(
          config,
          {
            path: `${repoPath(config, owner, repo)}/actions/runs`,
            query: { branch, status, event, actor },
            signal,
          },
          page,
          per_page,
          (d) => (d as { workflow_runs: unknown[] }).workflow_runs,
        );
        const text = new UntrustedText();
        const runs = list.items.map((r) => toRun(r, text));
        const total = (list.data as { total_count: number }).total_count;
        return respond(
          { repository: `${owner}/${repo}`, totalCount: total, runs, ...pageFields(list.info) },
          [
            `${owner}/${repo}: ${total} run${total === 1 ? '' : 's'}. ${pageLine(list.info, runs.length, 'runs')}`,
            ...runs.map(renderRun),
          ],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'get_workflow_run',
      title: 'Get workflow run',
      toolset: 'actions',
      description: `Get one GitHub Actions workflow run: status, conclusion, branch, sha, event, actor. list_workflow_jobs shows its jobs.${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        run_id: arg.number('Workflow run id'),
      }),
      outputSchema: z.object({ repository: z.string(), run: runShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, run_id }, { signal }) => {
        const res = await config.github.request({
          path: `${repoPath(config, owner, repo)}/actions/runs/${run_id}`,
          signal,
        });
        const text = new UntrustedText();
        const run = toRun(res.data, text);
        return respond({ repository: `${owner}/${repo}`, run }, [renderRun(run)], text);
      },
    }),

    repoTool(config, {
      name: 'list_workflow_jobs',
      title: 'List workflow jobs',
      toolset: 'actions',
      description: `List the jobs of a workflow run with their steps and conclusions, paged. get_job_logs shows a job's log tail.${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        run_id: arg.number('Workflow run id'),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({
        repository: z.string(),
        runId: count(),
        totalCount: count(),
        jobs: z.array(jobShape),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, run_id, page, per_page }, { signal }) => {
        const list = await listPage(
          config,
          { path: `${repoPath(config, owner, repo)}/actions/runs/${run_id}/jobs`, signal },
          page,
          per_page,
          (d) => (d as { jobs: unknown[] }).jobs,
        );
        const text = new UntrustedText();
        const jobs = list.items.map((j) => toJob(j, text));
        const total = (list.data as { total_count: number }).total_count;
        return respond(
          {
            repository: `${owner}/${repo}`,
            runId: run_id,
            totalCount: total,
            jobs,
            ...pageFields(list.info),
          },
          [
            `${owner}/${repo} run ${run_id}: ${pageLine(list.info, jobs.length, 'jobs')}`,
            ...jobs.map(renderJob),
          ],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'get_job_logs',
      title: 'Get job log tail',
      toolset: 'actions',
      heartbeat: 'downloading the job log',
      description: `Get the last lines of a GitHub Actions job's log (default 200, at most 5000 lines and ${budgets.logBytes / 1024} KB) — where failures are. Logs are untrusted text, sanitised (escape sequences removed).${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        job_id: arg.number('Job id (from list_workflow_jobs)'),
        tail_lines: z
          .number()
          .int()
          .min(1)
          .max(5000)
          .optional()
          .describe('How many lines from the end (default 200)'),
      }),
      outputSchema: z.object({
        repository: z.string(),
        jobId: count(),
        totalLines: count(),
        shownLines: count(),
        log: z.string(),
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, job_id, tail_lines = 200 }, { signal }) => {
        const res = await config.github.request<Buffer>({
          path: `${repoPath(config, owner, repo)}/actions/jobs/${job_id}/logs`,
          accept: 'application/vnd.github+json',
          bytes: true,
          signal,
        });
        const text = new UntrustedText();
        const cut = tail(text.log(res.data.toString('utf8')), tail_lines, budgets.logBytes);
        const shown = cut.total - cut.dropped;
        return respond(
          {
            repository: `${owner}/${repo}`,
            jobId: job_id,
            totalLines: cut.total,
            shownLines: shown,
            log: cut.text,
          },
          [
            `${owner}/${repo} job ${job_id} log: last ${shown} of ${cut.total} lines${cut.dropped ? ` (${cut.dropped} earlier lines not shown; raise tail_lines to see more)` : ''}.`,
            block(`${owner}/${repo} job ${job_id} log`, cut.text),
          ],
          text,
        );
      },
    }),
  ];
}
