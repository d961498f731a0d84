/**
 * get_ci_failures: why a merge request or ref is red, in one call. Finds the pipeline (a merge
 * request's head pipeline, else the newest pipeline on its head commit; a ref's newest pipeline),
 * its failed jobs (`scope[]=failed`), and for each of the first {@link MAX_LOGS} a digest of its
 * log: the section it failed in (GitLab's collapsible-section markers), the first error line and a
 * bounded tail, terminal sequences stripped. Jobs allowed to fail are listed as such and do not
 * make the pipeline red. Requests: the MR or the pipeline list, the failed jobs, one trace per job.
 */
import { compact, OPEN_WORLD_HINTS, ToolError } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { countedHeartbeat } from '@refmcp/shared/server';
import { digestLog, indent, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { bool, num, obj, str } from '../format/common.js';
import * as arg from '../names.js';
import type { GitLabTool } from '../toolsets.js';
import { projectBase, projectTool, scopeNote } from './common.js';

/** Failed jobs whose logs are read; the others are listed without. */
export const MAX_LOGS = 8;

const failureShape = z.object({
  name: z.string(),
  stage: z.string().optional(),
  jobId: z.number(),
  status: z.string(),
  failureReason: z.string().optional(),
  allowFailure: z.boolean().optional().describe('Allowed to fail: does not make the pipeline red'),
  url: z.string().optional(),
  section: z.string().optional().describe('The log section it failed in (e.g. step_script)'),
  firstError: z.object({ line: z.number(), text: z.string() }).optional(),
  logTail: z.string().optional(),
  totalLines: z.number().optional(),
});
type Failure = z.infer<typeof failureShape>;

export function ciDigestTools(config: Config): GitLabTool[] {
  const scope = scopeNote(config);
  return [
    projectTool(config, {
      name: 'get_ci_failures',
      title: 'Why is CI red',
      toolset: 'pipelines',
      description: `Why an MR or ref is red, in one call: its pipeline's failed jobs, each with the log section it failed in, first error line and log tail.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        merge_request_iid: arg.iid('merge_request_iid').optional(),
        ref: arg.ref('Branch, tag or sha (or merge_request_iid)').optional(),
        tail_lines: z.number().int().min(1).max(200).optional().describe('Log lines per job (default 25)'),
      }),
      outputSchema: z.object({
        pipeline: z
          .object({
            id: z.number(),
            status: z.string(),
            ref: z.string(),
            sha: z.string(),
            webUrl: z.string(),
          })
          .partial()
          .nullable(),
        failures: z.array(failureShape),
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, merge_request_iid, ref, tail_lines = 25 }, { signal, progress }) => {
        if ((merge_request_iid === undefined) === (ref === undefined))
          throw new ToolError('Give exactly one of merge_request_iid and ref.');
        const base = projectBase(config, project_id);
        const where =
          merge_request_iid === undefined ? `${project_id}@${ref}` : `${project_id}!${merge_request_iid}`;
        const found = await findPipeline(config, base, merge_request_iid, ref, signal);
        if (!found) return respond({ pipeline: null, failures: [] }, [`${where}: no pipeline found.`]);
        const pipeline = compact({
          id: num(found.id),
          status: str(found.status),
          ref: str(found.ref),
          sha: str(found.sha),
          webUrl: str(found.web_url),
        });
        const jobs = await config.gitlab.list(
          `${base}/pipelines/${pipeline.id}/jobs`,
          { 'scope[]': 'failed' },
          1,
          100,
          signal,
        );
        const text = new UntrustedText();
        const perJob = Math.max(
          2048,
          Math.floor(config.budgets.logBytes / Math.min(MAX_LOGS, jobs.items.length || 1)),
        );
        // With a progressToken: a heartbeat counting the traces read while they download (each can be large).
        const traces = Math.min(MAX_LOGS, jobs.items.length);
        const beat = traces ? countedHeartbeat(progress, traces, 'failed job logs read') : undefined;
        const failures: Failure[] = await Promise.all(
          jobs.items.map(async (raw, i) => {
            const j = obj(raw);
            const failure: Failure = compact({
              name: text.line(str(j.name)),
              stage: str(j.stage),
              jobId: num(j.id) ?? 0,
              status: str(j.status) ?? 'failed',
              failureReason: str(j.failure_reason),
              allowFailure: bool(j.allow_failure) || undefined,
              url: str(j.web_url),
            });
            if (i >= MAX_LOGS) return failure;
            const trace = await config.gitlab.request<string>({
              path: `${base}/jobs/${failure.jobId}/trace`,
              responseType: 'text',
              signal,
            });
            beat?.tick();
            const digest = digestLog(trace.data, { lines: tail_lines, maxBytes: perJob });
            return compact({
              ...failure,
              section: digest.section,
              firstError: digest.firstError
                ? { line: digest.firstError.line, text: text.line(digest.firstError.text) }
                : undefined,
              logTail: text.code(digest.tail),
              totalLines: digest.totalLines,
            });
          }),
        ).finally(() => beat?.stop());
        const red = failures.filter((f) => !f.allowFailure).length;
        return respond(
          { pipeline, failures },
          [
            `${where}: pipeline ${pipeline.id} ${pipeline.status} on ${pipeline.ref} (${pipeline.sha?.slice(0, 12) ?? '?'}), ${red} failed job${red === 1 ? '' : 's'}${failures.length > red ? `, ${failures.length - red} allowed to fail` : ''}. ${pipeline.webUrl ?? ''}`,
            ...failures.map(renderFailure),
            failures.length > MAX_LOGS
              ? `${failures.length - MAX_LOGS} more failed jobs without logs here: get_job_log reads them.`
              : '',
            jobs.info.hasMore ? 'More than 100 failed jobs: list_pipeline_jobs pages through them.' : '',
          ],
          text,
        );
      },
    }),
  ];
}

/** The pipeline to digest: an MR's head pipeline (else the newest on its head sha); a ref's newest. */
async function findPipeline(
  config: Config,
  base: string,
  iid: number | undefined,
  ref: string | undefined,
  signal: AbortSignal,
): Promise<Record<string, unknown> | undefined> {
  if (iid !== undefined) {
    const mr = obj(await config.gitlab.get(`${base}/merge_requests/${iid}`, undefined, signal));
    const head = obj(mr.head_pipeline);
    if (num(head.id)) return head;
    const sha = str(obj(mr.diff_refs).head_sha) ?? str(mr.sha);
    if (!sha) return undefined;
    const list = await config.gitlab.list(`${base}/pipelines`, { sha }, 1, 1, signal);
    return list.items[0] === undefined ? undefined : obj(list.items[0]);
  }
  const bySha = /^[0-9a-f]{7,40}$/i.test(ref ?? '');
  const list = await config.gitlab.list(`${base}/pipelines`, bySha ? { sha: ref } : { ref }, 1, 1, signal);
  return list.items[0] === undefined ? undefined : obj(list.items[0]);
}

function renderFailure(f: Failure): string {
  const parts = [
    `✗ ${f.name}${f.stage ? ` (${f.stage})` : ''} job ${f.jobId} ${f.status}${f.failureReason ? `: ${f.failureReason}` : ''}${f.allowFailure ? ' [allowed to fail]' : ''}${f.url ? ` ${f.url}` : ''}`,
  ];
  if (f.section) parts.push(`  failed in section: ${f.section}`);
  if (f.firstError) parts.push(`  first error (line ${f.firstError.line}): ${f.firstError.text}`);
  if (f.logTail)
    parts.push(
      `  last ${f.logTail.split('\n').length} of ${f.totalLines} log lines:`,
      indent(f.logTail, '    '),
    );
  return parts.join('\n');
}
