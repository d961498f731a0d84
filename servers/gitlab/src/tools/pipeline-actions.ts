/**
 * CI/CD (opt-in `pipelines` toolset): a merge request's pipelines, and the pipeline writes — retry
 * the failed and canceled jobs, cancel, create one for a ref with variables. Names and arguments of
 * the community GitLab MCP server (zereight/gitlab-mcp: list_merge_request_pipelines,
 * retry_pipeline, cancel_pipeline, create_pipeline). Each write is left out under --read-only.
 * GitLab: POST /projects/:id/pipelines/:pipeline_id/retry|cancel and POST /projects/:id/pipeline
 * (docs.gitlab.com/api/pipelines/), GET /projects/:id/merge_requests/:iid/pipelines
 * (docs.gitlab.com/api/merge_requests/#list-merge-request-pipelines).
 */
import { compact, OPEN_WORLD_HINTS } from '@refmcp/shared';
import { safeString, z } from '@refmcp/shared/schema';
import { respond } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import * as arg from '../names.js';
import type { GitLabTool } from '../toolsets.js';
import { projectBase, projectTool, scopeNote } from './common.js';
import { pipelineShape, renderPipeline, toPipeline } from './pipelines.js';

/** Most variables one create_pipeline call may pass. */
const MAX_VARIABLES = 50;

export function pipelineActionTools(config: Config): GitLabTool[] {
  const scope = scopeNote(config);
  const one = z.object({ pipeline: pipelineShape });
  const pipelinePath = (project_id: string, id: number) =>
    `${projectBase(config, project_id)}/pipelines/${id}`;
  const answer = (raw: unknown, verb: string) => {
    const pipeline = toPipeline(raw);
    return respond({ pipeline }, [
      `${verb} pipeline #${pipeline.id ?? '?'}: now ${pipeline.status ?? '?'}.`,
      pipeline.webUrl ?? '',
    ]);
  };
  return [
    projectTool(config, {
      name: 'list_merge_request_pipelines',
      title: 'List merge request pipelines',
      toolset: 'pipelines',
      description: `The pipelines of a merge request, newest first.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        merge_request_iid: arg.iid('merge_request_iid'),
      }),
      outputSchema: z.object({ pipelines: z.array(pipelineShape) }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, merge_request_iid }, { signal }) => {
        const raw = await config.gitlab.get<unknown[]>(
          `${projectBase(config, project_id)}/merge_requests/${merge_request_iid}/pipelines`,
          undefined,
          signal,
        );
        const pipelines = (Array.isArray(raw) ? raw : []).map(toPipeline);
        return respond({ pipelines }, [
          ...pipelines.map(renderPipeline),
          pipelines.length ? '' : `No pipelines for !${merge_request_iid}.`,
        ]);
      },
    }),

    projectTool(config, {
      name: 'retry_pipeline',
      title: 'Retry pipeline',
      toolset: 'pipelines',
      description: `Retry the failed and canceled jobs of a pipeline.${scope}`,
      inputSchema: z.strictObject({ project_id: arg.projectId(), pipeline_id: arg.id('Pipeline id') }),
      outputSchema: one,
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ project_id, pipeline_id }, { signal }) =>
        answer(
          await config.gitlab.write(
            'POST',
            `${pipelinePath(project_id, pipeline_id)}/retry`,
            undefined,
            signal,
          ),
          'Retried',
        ),
    }),

    projectTool(config, {
      name: 'cancel_pipeline',
      title: 'Cancel pipeline',
      toolset: 'pipelines',
      description: `Cancel the running and pending jobs of a pipeline.${scope}`,
      inputSchema: z.strictObject({ project_id: arg.projectId(), pipeline_id: arg.id('Pipeline id') }),
      outputSchema: one,
      annotations: OPEN_WORLD_HINTS.destructiveIdempotent,
      handler: async ({ project_id, pipeline_id }, { signal }) =>
        answer(
          await config.gitlab.write(
            'POST',
            `${pipelinePath(project_id, pipeline_id)}/cancel`,
            undefined,
            signal,
          ),
          'Canceled',
        ),
    }),

    projectTool(config, {
      name: 'create_pipeline',
      title: 'Create pipeline',
      toolset: 'pipelines',
      description: `Run a new pipeline for a branch or tag, optionally with CI/CD variables.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        ref: arg.ref('Branch or tag'),
        variables: z
          .array(
            z.strictObject({
              key: safeString({ max: 255 }).regex(/^[A-Za-z0-9_]+$/),
              value: arg.text(undefined, 65_536),
              variable_type: z.enum(['env_var', 'file']).optional(),
            }),
          )
          .max(MAX_VARIABLES)
          .optional(),
      }),
      outputSchema: one,
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ project_id, ref, variables }, { signal }) =>
        answer(
          await config.gitlab.write(
            'POST',
            `${projectBase(config, project_id)}/pipeline`,
            compact({ ref, variables }),
            signal,
          ),
          'Created',
        ),
    }),
  ];
}
