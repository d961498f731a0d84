/**
 * The repos toolset, writing: branches, new repositories, forks (reference names and arguments:
 * create_branch, create_repository, fork_repository), plus the file writes and push_files.
 */
import { defineTool, encodeSegment, OPEN_WORLD_HINTS, ToolError } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { renderRepo, repoShape, toRepo } from '../format/repos.js';
import { GitHubApiError } from '../github/errors.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import { currentLogin, repoPath, repoTool, scopeNote } from './common.js';
import { fileWriteTools } from './file-writes.js';
import { pushFilesTool } from './push-files.js';
import { headsPath } from './refs.js';

export function repoWriteTools(config: Config): GitHubTool[] {
  const scope = scopeNote(config);
  return [
    ...fileWriteTools(config),
    pushFilesTool(config),

    repoTool(config, {
      name: 'create_branch',
      title: 'Create branch',
      toolset: 'repos',
      description: `Create a branch from another branch (default: the repository's default branch). The repository needs at least one commit.${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        branch: arg.branch('Name for the new branch'),
        from_branch: arg.branch("Source branch (default: the repository's default branch)").optional(),
      }),
      outputSchema: z.object({
        repository: z.string(),
        branch: z.string(),
        from: z.string(),
        sha: z.string(),
      }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ owner, repo, branch, from_branch }, { signal }) => {
        const base = repoPath(config, owner, repo);
        const from =
          from_branch ??
          (await config.github.request<{ default_branch: string }>({ path: base, signal })).data
            .default_branch;
        let sha: string;
        try {
          sha = (
            await config.github.request<{ object: { sha: string } }>({
              path: `${base}/git/ref/${headsPath(from, 'from_branch')}`,
              signal,
            })
          ).data.object.sha;
        } catch (error) {
          if (error instanceof GitHubApiError && error.status === 409)
            throw new ToolError(
              `${owner}/${repo} is empty: a branch needs a commit to start from. Create a first file with create_or_update_file or push_files.`,
            );
          if (error instanceof GitHubApiError && error.status === 404)
            throw new ToolError(
              `from_branch: branch ${from} does not exist in ${owner}/${repo} (list_branches shows the branches).`,
            );
          throw error;
        }
        try {
          await config.github.request({
            method: 'POST',
            path: `${base}/git/refs`,
            body: { ref: `refs/heads/${branch}`, sha },
            signal,
          });
        } catch (error) {
          if (
            error instanceof GitHubApiError &&
            error.status === 422 &&
            /already exists/i.test(error.upstream)
          )
            throw new ToolError(`branch: ${branch} already exists in ${owner}/${repo}.`);
          throw error;
        }
        return respond({ repository: `${owner}/${repo}`, branch, from, sha }, [
          `Created branch ${branch} in ${owner}/${repo} from ${from} at ${sha}.`,
        ]);
      },
    }),

    defineTool({
      name: 'create_repository',
      title: 'Create repository',
      toolset: 'repos',
      description: `Create a repository in the token owner's account.${scope}`,
      inputSchema: z.strictObject({
        name: arg.repo().describe('Repository name'),
        description: arg.text('Repository description', 350).optional(),
        private: z.boolean().optional().describe('Whether the repository is private (default false)'),
        autoInit: z.boolean().optional().describe('Initialise with a README.md (default false)'),
      }),
      outputSchema: z.object({ repository: repoShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ name, description, private: isPrivate, autoInit }, { signal }) => {
        if (config.scope) config.scope.check(await currentLogin(config, signal), name);
        const res = await config.github.request({
          method: 'POST',
          path: '/user/repos',
          body: { name, description, private: isPrivate, auto_init: autoInit },
          signal,
        });
        const text = new UntrustedText();
        const repository = toRepo(res.data, text);
        return respond({ repository }, [`Created ${renderRepo(repository)}`], text);
      },
    }),

    repoTool(config, {
      name: 'fork_repository',
      title: 'Fork repository',
      toolset: 'repos',
      description: `Fork a repository to your account or an organization (GitHub fills the fork asynchronously).${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        organization: arg
          .owner()
          .describe('Organization to fork to (default: your personal account)')
          .optional(),
      }),
      outputSchema: z.object({ repository: repoShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ owner, repo, organization }, { signal }) => {
        const base = repoPath(config, owner, repo);
        if (config.scope) config.scope.check(organization ?? (await currentLogin(config, signal)), repo);
        if (organization) encodeSegment(organization, 'organization');
        const res = await config.github.request({
          method: 'POST',
          path: `${base}/forks`,
          body: organization ? { organization } : {},
          signal,
        });
        const text = new UntrustedText();
        const repository = toRepo(res.data, text);
        return respond({ repository }, [`Forked ${owner}/${repo} → ${renderRepo(repository)}`], text);
      },
    }),
  ];
}
