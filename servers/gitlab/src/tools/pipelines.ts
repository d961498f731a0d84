/**
 * CI/CD (opt-in toolset) reads: pipelines, a pipeline's jobs, and a job's log tail within a
 * byte budget (or a window from a byte offset, GitLab's byte_offset/byte_limit). Writes (retry,
 * cancel, create) and a merge request's pipelines: pipeline-actions.ts.
 */
import {
  compact,
  OPEN_WORLD_HINTS,
  pageFields,
  pageLine,
  pageShapeFor,
  truncateUtf8,
  truncationMarker,
} from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { num, obj, str, username } from '../format/common.js';
import * as arg from '../names.js';
import type { GitLabTool } from '../toolsets.js';
import { projectBase, projectTool, scopeNote } from './common.js';

const pages = pageShapeFor('GitLab');
export const pipelineShape = z.object({
  id: z.number().optional(),
  status: z.string().optional(),
  ref: z.string().optional(),
  sha: z.string().optional(),
  source: z.string().optional(),
  createdAt: z.string().optional(),
  webUrl: z.string().optional(),
});
const jobShape = z.object({
  id: z.number().optional(),
  name: z.string().optional(),
  stage: z.string().optional(),
  status: z.string().optional(),
  duration: z.number().optional(),
  user: z.string().optional(),
  webUrl: z.string().optional(),
});

export const toPipeline = (raw: unknown) => {
  const p = obj(raw);
  return compact({
    id: num(p.id),
    status: str(p.status),
    ref: str(p.ref),
    sha: str(p.sha),
    source: str(p.source),
    createdAt: str(p.created_at),
    webUrl: str(p.web_url),
  });
};
/** "- #12 failed on main (abc123def456, 2026-…)". */
export const renderPipeline = (p: z.infer<typeof pipelineShape>) =>
  `- #${p.id} ${p.status} on ${p.ref} (${p.sha?.slice(0, 12) ?? '?'}, ${p.createdAt ?? '?'})`;

const toJob = (raw: unknown, text: UntrustedText) => {
  const j = obj(raw);
  return compact({
    id: num(j.id),
    name: str(j.name) ? text.line(str(j.name)) : undefined,
    stage: str(j.stage),
    status: str(j.status),
    duration: num(j.duration),
    user: username(j.user),
    webUrl: str(j.web_url),
  });
};

export function pipelineTools(config: Config): GitLabTool[] {
  const scope = scopeNote(config);
  const maxLog = config.budgets.logBytes;
  return [
    projectTool(config, {
      name: 'list_pipelines',
      title: 'List pipelines',
      toolset: 'pipelines',
      description: `List a project's pipelines, newest first, by ref or status.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        ref: arg.ref('Branch or tag').optional(),
        status: z
          .enum([
            'created',
            'pending',
            'running',
            'success',
            'failed',
            'canceled',
            'skipped',
            'manual',
            'scheduled',
          ])
          .optional(),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({ pipelines: z.array(pipelineShape), ...pages }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, ref, status, page = 1, per_page = 20 }, { signal }) => {
        const res = await config.gitlab.list(
          `${projectBase(config, project_id)}/pipelines`,
          { ref, status },
          page,
          per_page,
          signal,
        );
        const pipelines = res.items.map(toPipeline);
        return respond({ pipelines, ...pageFields(res.info) }, [
          ...pipelines.map(renderPipeline),
          pageLine(res.info, pipelines.length, 'pipelines'),
        ]);
      },
    }),

    projectTool(config, {
      name: 'list_pipeline_jobs',
      title: 'List pipeline jobs',
      toolset: 'pipelines',
      description: `List the jobs of one pipeline with stage and status.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        pipeline_id: arg.id('Pipeline id'),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({ jobs: z.array(jobShape), ...pages, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, pipeline_id, page = 1, per_page = 20 }, { signal }) => {
        const path = `${projectBase(config, project_id)}/pipelines/${pipeline_id}/jobs`;
        const res = await config.gitlab.list(path, {}, page, per_page, signal);
        const text = new UntrustedText();
        const jobs = res.items.map((j) => toJob(j, text));
        return respond(
          { jobs, ...pageFields(res.info) },
          [
            ...jobs.map(
              (j) =>
                `- job ${j.id} ${j.name} [${j.stage}] ${j.status}${j.duration ? ` in ${Math.round(j.duration)} s` : ''}`,
            ),
            pageLine(res.info, jobs.length, 'jobs'),
          ],
          text,
        );
      },
    }),

    projectTool(config, {
      name: 'get_job_log',
      title: 'Get job log tail',
      toolset: 'pipelines',
      heartbeat: 'downloading the job log',
      description: `The end of a job's log (default ${maxLog / 1024} KiB), or a window from byte offset.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        job_id: arg.id('Job id'),
        tail_bytes: z
          .number()
          .int()
          .min(1)
          .max(maxLog)
          .optional()
          .describe(`Bytes from the end (default ${maxLog})`),
        offset: z
          .number()
          .int()
          .min(0)
          .max(2_147_483_647)
          .optional()
          .describe('Read from this byte offset instead of the tail'),
      }),
      outputSchema: z.object({
        job: z.number(),
        log: z.string(),
        start: z.number(),
        truncated: z.boolean(),
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, job_id, tail_bytes = maxLog, offset }, { signal }) => {
        const path = `${projectBase(config, project_id)}/jobs/${job_id}/trace`;
        const text = new UntrustedText();
        let log: string;
        let start: number;
        let lines: string[];
        let truncated: boolean;
        if (offset !== undefined) {
          const res = await config.gitlab.request<string>({
            path,
            query: { byte_offset: offset, byte_limit: tail_bytes },
            responseType: 'text',
            signal,
          });
          const cut = truncateUtf8(res.data, tail_bytes);
          log = text.log(cut.text);
          start = offset;
          truncated = Buffer.byteLength(res.data) >= tail_bytes;
          lines = [
            `Job ${job_id} log from byte ${offset}:`,
            block('job log', log),
            truncated
              ? truncationMarker(
                  'the log may go on',
                  `call again with offset: ${offset + Buffer.byteLength(cut.text)}`,
                )
              : '',
          ];
        } else {
          const res = await config.gitlab.request<string>({ path, responseType: 'text', signal });
          const bytes = Buffer.from(res.data, 'utf8');
          start = Math.max(0, bytes.length - tail_bytes);
          while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
          log = text.log(bytes.subarray(start).toString('utf8'));
          truncated = start > 0;
          lines = [
            truncated
              ? truncationMarker(
                  `${start} earlier bytes of ${bytes.length}`,
                  'read them with offset (and tail_bytes as the window size)',
                )
              : '',
            `Job ${job_id} log${truncated ? ` (last ${bytes.length - start} bytes)` : ''}:`,
            block('job log', log),
          ];
        }
        return respond({ job: job_id, log, start, truncated }, lines, text);
      },
    }),
  ];
}
