/**
 * get_ci_failures: why a pull request or ref is red, in one call. Reads the head commit's check runs
 * and combined status; for each failed GitHub Actions check run (its id is the job's id) the job's
 * failed steps and a digest of its log (the first error line and a bounded tail, terminal
 * sequences and timestamps removed); for other apps' failed checks their output title and summary;
 * failed commit statuses with their description. Requests: the PR (with pull_number), check runs,
 * status, then two per failed Actions job (job, log), at most {@link MAX_LOGS} jobs.
 */
import { count, OPEN_WORLD_HINTS, ToolError } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { countedHeartbeat } from '@refmcp/shared/server';
import { digestLog, indent, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { checkFailed, toCheckRun, verdictOf, verdictShape } from '../format/checks.js';
import { toStatus } from '../format/pulls.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import { repoPath, repoTool, scopeNote } from './common.js';

/** Failed Actions jobs whose logs are read; the others are listed without. */
export const MAX_LOGS = 8;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z /;

const failureShape = z.object({
  name: z.string(),
  kind: z.enum(['actions', 'check', 'status']),
  conclusion: z.string().nullable(),
  url: z.string().nullable(),
  jobId: count().optional(),
  failedSteps: z.array(z.string()).optional(),
  firstError: z.object({ line: count(), text: z.string() }).optional(),
  logTail: z.string().optional(),
  totalLines: count().optional(),
  title: z.string().nullable().optional(),
  summary: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
});

export function ciDigestTools(config: Config): GitHubTool[] {
  const scope = scopeNote(config);
  const { budgets } = config;
  return [
    repoTool(config, {
      name: 'get_ci_failures',
      title: 'Why is CI red',
      toolset: 'actions',
      description: `Why a PR or ref is red, in one call: each failed check (Actions job: failed steps, first error line, log tail; app: summary) and failed status.${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        pull_number: arg.number('Pull request number (or ref)').optional(),
        ref: arg.refName('Branch, tag or sha (or pull_number)').optional(),
        tail_lines: z.number().int().min(1).max(200).optional().describe('Log lines per job (default 25)'),
      }),
      outputSchema: z.object({
        repository: z.string(),
        sha: z.string(),
        verdict: verdictShape,
        checks: count().describe('Check runs and statuses on the commit'),
        failures: z.array(failureShape),
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, pull_number, ref, tail_lines = 25 }, { signal, progress }) => {
        if ((pull_number === undefined) === (ref === undefined))
          throw new ToolError('Give exactly one of pull_number and ref.');
        const base = repoPath(config, owner, repo);
        const target =
          pull_number === undefined
            ? (ref as string)
            : (
                await config.github.request<{ head: { sha: string } }>({
                  path: `${base}/pulls/${pull_number}`,
                  signal,
                })
              ).data.head.sha;
        const [runs, combined] = await Promise.all([
          config.github.request<{ total_count: number; check_runs: unknown[] }>({
            path: `${base}/commits/${encodeURIComponent(target)}/check-runs`,
            query: { filter: 'latest', per_page: 100 },
            signal,
          }),
          config.github.request({ path: `${base}/commits/${encodeURIComponent(target)}/status`, signal }),
        ]);
        const text = new UntrustedText();
        const status = toStatus(combined.data, text);
        const sha = status.sha || target;
        const checks = runs.data.check_runs.map((c) => toCheckRun(c, text, 1024));
        const verdict = verdictOf(
          status.statuses.map((s) => s.state),
          checks,
        );
        const failed = checks.filter(checkFailed);
        const withLogs = failed.filter((c) => c.app === 'github-actions').slice(0, MAX_LOGS);
        const perJob = Math.max(2048, Math.floor(budgets.logBytes / Math.max(1, withLogs.length)));
        // With a progressToken: a heartbeat counting the logs read while they download (each can be large).
        const beat = withLogs.length
          ? countedHeartbeat(progress, withLogs.length, 'failed job logs read')
          : undefined;
        const failures: z.infer<typeof failureShape>[] = await Promise.all(
          failed.map(async (c) => {
            if (!withLogs.includes(c))
              return c.app === 'github-actions'
                ? {
                    name: c.name,
                    kind: 'actions' as const,
                    conclusion: c.conclusion,
                    url: c.url,
                    jobId: c.id,
                  }
                : {
                    name: c.name,
                    kind: 'check' as const,
                    conclusion: c.conclusion,
                    url: c.url,
                    title: c.title ?? null,
                    summary: c.summary ?? null,
                  };
            const [job, log] = await Promise.all([
              config.github.request<{ steps?: { name: string; conclusion: string | null }[] }>({
                path: `${base}/actions/jobs/${c.id}`,
                signal,
              }),
              config.github.request<Buffer>({
                path: `${base}/actions/jobs/${c.id}/logs`,
                accept: 'application/vnd.github+json',
                bytes: true,
                signal,
              }),
            ]);
            beat?.tick();
            const digest = digestLog(log.data.toString('utf8'), {
              lines: tail_lines,
              maxBytes: perJob,
              prepare: (line) => line.replace(TIMESTAMP, ''),
            });
            return {
              name: c.name,
              kind: 'actions' as const,
              conclusion: c.conclusion,
              url: c.url,
              jobId: c.id,
              failedSteps: (job.data.steps ?? [])
                .filter((s) => s.conclusion === 'failure')
                .map((s) => text.line(s.name)),
              ...(digest.firstError
                ? { firstError: { line: digest.firstError.line, text: text.line(digest.firstError.text) } }
                : {}),
              logTail: text.code(digest.tail),
              totalLines: digest.totalLines,
            };
          }),
        ).finally(() => beat?.stop());
        for (const s of status.statuses)
          if (s.state === 'error' || s.state === 'failure')
            failures.push({
              name: s.context,
              kind: 'status',
              conclusion: s.state,
              url: s.targetUrl,
              description: s.description,
            });
        const skipped = failed.filter((c) => c.app === 'github-actions').length - withLogs.length;
        const where =
          pull_number === undefined ? `${owner}/${repo}@${ref}` : `${owner}/${repo}#${pull_number}`;
        return respond(
          {
            repository: `${owner}/${repo}`,
            sha,
            verdict,
            checks: checks.length + status.totalCount,
            failures,
          },
          [
            `${where} (${sha.slice(0, 12)}): ${verdict}, ${failures.length} of ${checks.length + status.totalCount} checks failed.`,
            ...failures.map(renderFailure),
            skipped > 0 ? `${skipped} more failed jobs without logs here: get_job_logs reads them.` : '',
          ],
          text,
        );
      },
    }),
  ];
}

function renderFailure(f: z.infer<typeof failureShape>): string {
  const head = `✗ ${f.name} [${f.kind}: ${f.conclusion ?? '?'}]${f.url ? ` ${f.url}` : ''}`;
  const parts = [head];
  if (f.failedSteps?.length) parts.push(`  failed step: ${f.failedSteps.join('; ')}`);
  if (f.firstError) parts.push(`  first error (line ${f.firstError.line}): ${f.firstError.text}`);
  if (f.logTail)
    parts.push(
      `  last ${f.logTail.split('\n').length} of ${f.totalLines} log lines:`,
      indent(f.logTail, '    '),
    );
  if (f.title) parts.push(`  ${f.title}`);
  if (f.summary) parts.push(indent(f.summary, '  '));
  if (f.description) parts.push(`  ${f.description}`);
  return parts.join('\n');
}
