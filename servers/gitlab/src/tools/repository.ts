/**
 * The repository: create_branch (reference name and arguments), list_branches,
 * get_repository_tree, list_commits, get_commit (with its diff), compare_refs. Commit messages and
 * diffs are untrusted text; diffs are bounded by the diff budget.
 */
import {
  compact,
  HttpError,
  OPEN_WORLD_HINTS,
  pageFields,
  pageLine,
  pageShapeFor,
  ToolError,
  truncationMarker,
} from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { arr, obj, str } from '../format/common.js';
import {
  branchShape,
  commitShape,
  diffShape,
  entryShape,
  renderDiff,
  toBranch,
  toCommit,
  toDiffs,
  toEntry,
} from '../format/repo.js';
import * as arg from '../names.js';
import type { GitLabTool } from '../toolsets.js';
import { projectBase, projectTool, scopeNote } from './common.js';
import { headBranch } from './files.js';

const pages = pageShapeFor('GitLab');

export function repositoryTools(config: Config): GitLabTool[] {
  const scope = scopeNote(config);
  const listed = <T>(
    what: string,
    items: T[],
    info: Parameters<typeof pageLine>[0],
    render: (t: T) => string,
  ) => [...items.map((t) => `- ${render(t)}`), pageLine(info, items.length, what)];
  return [
    projectTool(config, {
      name: 'create_branch',
      title: 'Create branch',
      toolset: 'projects',
      description: `Create a branch from ref.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        branch: arg.ref('Name for the new branch'),
        ref: arg.ref('Branch, tag or commit to start from (default: default branch)').optional(),
      }),
      outputSchema: z.object({
        project: z.string(),
        branch: z.string(),
        from: z.string(),
        commit: z.string().optional(),
      }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ project_id, branch, ref }, { signal }) => {
        const base = projectBase(config, project_id);
        const emptyRepository = () =>
          new ToolError(
            `${project_id} has an empty repository (no commits yet): there is nothing to branch from. Make the first commit with push_files or create_or_update_file on the branch you want (that creates it), then create branches from it.`,
          );
        const from = ref ?? (await headBranch(config, base, signal));
        if (from === undefined) throw emptyRepository();
        let b: unknown;
        try {
          b = await config.gitlab.write<unknown>(
            'POST',
            `${base}/repository/branches`,
            { branch, ref: from },
            signal,
          );
        } catch (error) {
          // GitLab answers 400 "Invalid reference name: <ref>" when the ref does not exist, which is
          // also what an empty repository gives: say which, and what to do.
          if (
            !(
              error instanceof HttpError &&
              error.status === 400 &&
              /invalid reference name/i.test(error.message)
            )
          )
            throw error;
          if ((await headBranch(config, base, signal)) === undefined) throw emptyRepository();
          throw new ToolError(
            `ref: ${JSON.stringify(from)} is no branch, tag or commit of ${project_id} (${error.message}). list_branches shows its branches; omit ref to start from the default branch.`,
          );
        }
        const commit = obj(obj(b).commit).id;
        return respond(
          compact({
            project: project_id,
            branch,
            from,
            commit: typeof commit === 'string' ? commit : undefined,
          }),
          [
            `Created branch ${branch} in ${project_id} from ${from}${typeof commit === 'string' ? ` at ${commit}` : ''}.`,
          ],
        );
      },
    }),

    projectTool(config, {
      name: 'list_branches',
      title: 'List branches',
      toolset: 'projects',
      description: `List a project's branches.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        search: arg.text('Part of the branch name', 255).optional(),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({ branches: z.array(branchShape), ...pages, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, search, page = 1, per_page = 20 }, { signal }) => {
        const base = projectBase(config, project_id);
        const res = await config.gitlab.list(
          `${base}/repository/branches`,
          { search },
          page,
          per_page,
          signal,
        );
        const text = new UntrustedText();
        const branches = res.items.map((b) => toBranch(b, text));
        return respond(
          { branches, ...pageFields(res.info) },
          listed('branches', branches, res.info, (b) =>
            [b.name, b.commit?.slice(0, 12), b.default ? '(default)' : '', b.protected ? '(protected)' : '']
              .filter(Boolean)
              .join(' '),
          ),
          text,
        );
      },
    }),

    projectTool(config, {
      name: 'get_repository_tree',
      title: 'List repository tree',
      toolset: 'projects',
      description: `List files and directories under a path.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        path: arg.repoPath('Directory (default: the root)').optional(),
        ref: arg.ref('Branch, tag or commit (default: default branch)').optional(),
        recursive: z.boolean().optional().describe('Include subdirectories'),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({ entries: z.array(entryShape), ...pages, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, path, ref, recursive, page = 1, per_page = 20 }, { signal }) => {
        const base = projectBase(config, project_id);
        const query = { path: path ? arg.pathQuery(path) : undefined, ref, recursive };
        const res = await config.gitlab.list(`${base}/repository/tree`, query, page, per_page, signal);
        const text = new UntrustedText();
        const entries = res.items.map((e) => toEntry(e, text));
        return respond(
          { entries, ...pageFields(res.info) },
          listed('entries', entries, res.info, (e) => `${e.type} ${e.path}`),
          text,
        );
      },
    }),

    projectTool(config, {
      name: 'list_commits',
      title: 'List commits',
      toolset: 'projects',
      description: `List commits of a ref, newest first.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        ref_name: arg.ref('Branch, tag or commit range (default: default branch)').optional(),
        path: arg.repoPath('Only commits touching this path').optional(),
        since: arg.text('ISO 8601 date: commits after it', 64).optional(),
        until: arg.text('ISO 8601 date: commits before it', 64).optional(),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({ commits: z.array(commitShape), ...pages, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, ref_name, path, since, until, page = 1, per_page = 20 }, { signal }) => {
        const base = projectBase(config, project_id);
        const query = { ref_name, path: path ? arg.pathQuery(path) : undefined, since, until };
        const res = await config.gitlab.list(`${base}/repository/commits`, query, page, per_page, signal);
        const text = new UntrustedText();
        const commits = res.items.map((c) => toCommit(c, text));
        return respond(
          { commits, ...pageFields(res.info) },
          listed(
            'commits',
            commits,
            res.info,
            (c) => `${c.id.slice(0, 12)} ${c.title} (${c.author ?? '?'}, ${c.date ?? '?'})`,
          ),
          text,
        );
      },
    }),

    projectTool(config, {
      name: 'get_commit',
      title: 'Get commit with diff',
      toolset: 'projects',
      description: `One commit: message, author and its diff (cut at ${config.budgets.diffBytes / 1024} KiB; page through files).${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        sha: arg.ref('Commit sha, branch or tag'),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({
        commit: commitShape,
        files: z.array(diffShape),
        ...pages,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, sha, page = 1, per_page = 20 }, { signal }) => {
        const base = projectBase(config, project_id);
        const segment = arg.filePathSegment(sha, 'sha');
        const [raw, diffs] = await Promise.all([
          config.gitlab.get(`${base}/repository/commits/${segment}`, undefined, signal),
          config.gitlab.list(`${base}/repository/commits/${segment}/diff`, {}, page, per_page, signal),
        ]);
        const text = new UntrustedText();
        const commit = toCommit(raw, text, config.budgets.bodyBytes);
        const files = toDiffs(
          diffs.items,
          text,
          { left: config.budgets.diffBytes },
          'call again with a smaller per_page and a later page',
          { from: str(arr(obj(raw).parent_ids)[0]), to: commit.id || sha },
        );
        return respond(
          { commit, files, ...pageFields(diffs.info) },
          [
            `Commit ${commit.id} by ${commit.author ?? '?'} at ${commit.date ?? '?'}`,
            block('commit message', commit.message ?? commit.title),
            ...files.map((f) => block(`diff ${f.path}`, renderDiff(f))),
            pageLine(diffs.info, files.length, 'files'),
          ],
          text,
        );
      },
    }),

    projectTool(config, {
      name: 'compare_refs',
      title: 'Compare refs',
      toolset: 'projects',
      description: `Commits and diff between two refs (from..to; straight: from...to is the default merge-base compare).${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        from: arg.ref('Base branch, tag or commit'),
        to: arg.ref('Head branch, tag or commit'),
        straight: z.boolean().optional().describe('Compare from and to directly, not from their merge base'),
      }),
      outputSchema: z.object({
        commits: z.array(commitShape),
        files: z.array(diffShape),
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, from, to, straight }, { signal }) => {
        const base = projectBase(config, project_id);
        const raw = obj(
          await config.gitlab.get(`${base}/repository/compare`, { from, to, straight }, signal),
        );
        const text = new UntrustedText();
        const allCommits = arr(raw.commits);
        const commits = allCommits.slice(0, 100).map((c) => toCommit(c, text));
        const more = 'compare narrower refs, or read one commit with get_commit';
        const files = toDiffs(arr(raw.diffs), text, { left: config.budgets.diffBytes }, more, {
          from,
          to,
        });
        return respond(
          { commits, files },
          [
            `${from}...${to}: ${allCommits.length} commit(s), ${files.length} file(s) changed.`,
            ...commits.map((c) => `- ${c.id.slice(0, 12)} ${c.title}`),
            allCommits.length > commits.length
              ? truncationMarker(`${allCommits.length - commits.length} more commits`, more)
              : '',
            ...files.map((f) => block(`diff ${f.path}`, renderDiff(f))),
          ],
          text,
        );
      },
    }),
  ];
}
