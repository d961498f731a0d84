/**
 * Projects (reference names and arguments: search_repositories, create_repository,
 * fork_repository, create_branch) and get_project, list_projects. Project objects go through
 * format/projects.ts, which drops the secrets GitLab puts in them (GL-03).
 */
import { defineTool, OPEN_WORLD_HINTS, pageFields, pageLine, pageShapeFor } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { type Project, projectShape, renderProject, toProject } from '../format/projects.js';
import * as arg from '../names.js';
import type { GitLabTool } from '../toolsets.js';
import { currentUsername, projectBase, projectTool, scopeNote } from './common.js';

const listShape = z.object({
  projects: z.array(projectShape),
  ...pageShapeFor('GitLab'),
  ...neutralizedField,
});
const oneShape = z.object({ project: projectShape, ...neutralizedField });

export function projectTools(config: Config): GitLabTool[] {
  const scope = scopeNote(config);
  /** A page of /projects, out-of-scope projects left out (said in the text). */
  const projectList = async (
    query: Record<string, string | number | boolean | undefined>,
    page: number,
    perPage: number,
    signal: AbortSignal,
  ) => {
    const res = await config.gitlab.list(`/projects`, query, page, perPage, signal);
    const text = new UntrustedText();
    const all = res.items.map((p) => toProject(p, text));
    const projects = config.scope ? all.filter((p) => config.scope?.allows(p.path)) : all;
    const hidden = all.length - projects.length;
    return respond(
      { projects, ...pageFields(res.info) },
      [
        ...projects.map((p) => `- ${renderProject(p)}`),
        hidden ? `${hidden} project(s) outside --projects left out.` : '',
        pageLine(res.info, projects.length, 'projects'),
      ],
      text,
    );
  };
  const oneProject = (raw: unknown, verb: string) => {
    const text = new UntrustedText();
    const project: Project = toProject(raw, text, 4096);
    return respond(
      { project },
      [`${verb} ${renderProject(project)}${project.webUrl ? ` — ${project.webUrl}` : ''}`],
      text,
    );
  };
  return [
    defineTool({
      name: 'search_repositories',
      title: 'Search projects',
      toolset: 'projects',
      description: `Search projects by name, path or description.${scope}`,
      inputSchema: z.strictObject({
        search: arg.text('Search query', 256),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: listShape,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: ({ search, page = 1, per_page = 20 }, { signal }) =>
        projectList({ search, simple: true, order_by: 'last_activity_at' }, page, per_page, signal),
    }),

    defineTool({
      name: 'list_projects',
      title: 'List projects',
      toolset: 'projects',
      description: `List projects the token's user is a member of (or owns), most recently active first.${scope}`,
      inputSchema: z.strictObject({
        owned: z.boolean().optional().describe('Only projects the user owns'),
        archived: z.boolean().optional().describe('Archived (true) or active (false) projects only'),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: listShape,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: ({ owned, archived, page = 1, per_page = 20 }, { signal }) =>
        projectList(
          { membership: true, owned, archived, simple: true, order_by: 'last_activity_at' },
          page,
          per_page,
          signal,
        ),
    }),

    projectTool(config, {
      name: 'get_project',
      title: 'Get project',
      toolset: 'projects',
      description: `A project's path, id, visibility, default branch and description.${scope}`,
      inputSchema: z.strictObject({ project_id: arg.projectId() }),
      outputSchema: oneShape,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id }, { signal }) =>
        oneProject(await config.gitlab.get(projectBase(config, project_id), undefined, signal), 'Project'),
    }),

    defineTool({
      name: 'create_repository',
      title: 'Create project',
      toolset: 'projects',
      description: `Create a project in your namespace.${scope}`,
      inputSchema: z.strictObject({
        name: arg.text('Project name', 255),
        description: arg.text('Project description', 2000).optional(),
        visibility: z
          .enum(['private', 'internal', 'public'])
          .optional()
          .describe('Visibility (default private)'),
        initialize_with_readme: z.boolean().optional().describe('Create a README.md'),
      }),
      outputSchema: oneShape,
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ name, description, visibility, initialize_with_readme }, { signal }) => {
        if (config.scope) config.scope.check(`${await currentUsername(config, signal)}/${name}`);
        const raw = await config.gitlab.write(
          'POST',
          '/projects',
          { name, description, visibility, initialize_with_readme },
          signal,
        );
        return oneProject(raw, 'Created');
      },
    }),

    projectTool(config, {
      name: 'fork_repository',
      title: 'Fork project',
      toolset: 'projects',
      description: `Fork a project. GitLab forks asynchronously: its contents may take a moment.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        namespace: arg.text('Namespace to fork to, full path (default: yours)', 1024).optional(),
      }),
      outputSchema: oneShape,
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ project_id, namespace }, { signal }) => {
        const base = projectBase(config, project_id);
        if (config.scope) {
          const name = project_id.split('/').at(-1) ?? project_id;
          config.scope.check(`${namespace ?? (await currentUsername(config, signal))}/${name}`);
        }
        const raw = await config.gitlab.write(
          'POST',
          `${base}/fork`,
          namespace ? { namespace_path: namespace } : {},
          signal,
        );
        return oneProject(raw, `Forked ${project_id} →`);
      },
    }),
  ];
}
