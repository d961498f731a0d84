/**
 * push_files (reference arguments): several files in one commit through the Git Data API —
 * ref → base commit → tree (with base_tree) → commit → fast-forward ref update. Preconditions
 * are handled, not reported as opaque 404/409s (case GH-07):
 * - a branch that does not exist is created from the default branch (said in the result);
 * - an empty repository (GitHub's Git Data API answers 409 "Git Repository is empty") is
 *   initialised with the first file through the contents API, the rest then go in one commit;
 * - a branch that moved meanwhile (not a fast-forward) is an error saying to call again.
 * The ref is never force-updated.
 */
import { encodePath, OPEN_WORLD_HINTS, ToolError } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { respond } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { contentsPath } from '../files.js';
import { GitHubApiError } from '../github/errors.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import { repoPath, repoTool, scopeNote } from './common.js';
import { headsPath } from './refs.js';

interface FileSpec {
  path: string;
  content: string;
}

async function branchHead(
  config: Config,
  base: string,
  branch: string,
  signal: AbortSignal,
): Promise<string | 'missing' | 'empty'> {
  try {
    const res = await config.github.request<{ object: { sha: string } }>({
      path: `${base}/git/ref/${headsPath(branch)}`,
      signal,
    });
    return res.data.object.sha;
  } catch (error) {
    if (error instanceof GitHubApiError && error.status === 404) return 'missing';
    if (error instanceof GitHubApiError && error.status === 409) return 'empty';
    throw error;
  }
}

export function pushFilesTool(config: Config): GitHubTool {
  return repoTool(config, {
    name: 'push_files',
    title: 'Push files in one commit',
    toolset: 'repos',
    description:
      `Commit several files (created or replaced) to a branch in one commit; a missing branch is created from the default branch. ` +
      `The branch is only fast-forwarded: if it moved meanwhile, call again.${scopeNote(config)}`,
    inputSchema: z.strictObject({
      owner: arg.owner(),
      repo: arg.repo(),
      branch: arg.branch('Branch to push to'),
      files: z
        .array(
          z.strictObject({
            path: arg.writePath('File path'),
            content: arg.text('Whole content (UTF-8)', 10 * 1024 * 1024),
          }),
        )
        .min(1)
        .max(1000)
        .describe('Files to create or replace'),
      message: arg.text('Commit message', 4096),
    }),
    outputSchema: z.object({
      repository: z.string(),
      branch: z.string(),
      commit: z.string(),
      commits: z
        .array(z.string())
        .describe('Every commit made, oldest first (two when an empty repository was initialised)'),
      createdBranch: z.boolean(),
      initializedRepository: z.boolean(),
      files: z.array(z.string()),
    }),
    annotations: OPEN_WORLD_HINTS.additive,
    handler: async ({ owner, repo, branch, files, message }, { signal }) => {
      const base = repoPath(config, owner, repo);
      const seen = new Set<string>();
      for (const f of files as FileSpec[]) {
        encodePath(f.path, 'files.path'); // refuses "." / ".." / empty segments
        if (!f.path.replace(/^\/+|\/+$/g, ''))
          throw new ToolError('files.path: must name a file, not the repository root');
        if (seen.has(f.path)) throw new ToolError(`files: ${f.path} is listed twice`);
        seen.add(f.path);
      }
      const entries = (files as FileSpec[]).map((f) => ({
        path: f.path.replace(/^\/+|\/+$/g, ''),
        content: f.content,
      }));
      const commits: string[] = [];
      let head = await branchHead(config, base, branch, signal);
      let createdBranch = false;
      let initialized = false;
      if (head === 'empty') {
        const first = entries.shift() as FileSpec;
        const res = await config.github.request<{ commit: { sha: string } }>({
          method: 'PUT',
          path: contentsPath(config, owner, repo, first.path),
          body: { message, content: Buffer.from(first.content, 'utf8').toString('base64'), branch },
          signal,
        });
        commits.push(res.data.commit.sha);
        initialized = true;
        if (entries.length === 0) return done();
        head = res.data.commit.sha;
      } else if (head === 'missing') {
        const repoInfo = await config.github.request<{ default_branch: string }>({ path: base, signal });
        const from = await branchHead(config, base, repoInfo.data.default_branch, signal);
        if (typeof from !== 'string' || from === 'missing' || from === 'empty')
          throw new ToolError(
            `branch: ${branch} does not exist and the default branch ${repoInfo.data.default_branch} could not be read to create it from`,
          );
        head = from;
        createdBranch = true;
      }
      const parent = await config.github.request<{ tree: { sha: string } }>({
        path: `${base}/git/commits/${head}`,
        signal,
      });
      const tree = await config.github.request<{ sha: string }>({
        method: 'POST',
        path: `${base}/git/trees`,
        body: {
          base_tree: parent.data.tree.sha,
          tree: entries.map((f) => ({ path: f.path, mode: '100644', type: 'blob', content: f.content })),
        },
        signal,
      });
      const commit = await config.github.request<{ sha: string }>({
        method: 'POST',
        path: `${base}/git/commits`,
        body: { message, tree: tree.data.sha, parents: [head] },
        signal,
      });
      commits.push(commit.data.sha);
      try {
        if (createdBranch)
          await config.github.request({
            method: 'POST',
            path: `${base}/git/refs`,
            body: { ref: `refs/heads/${branch}`, sha: commit.data.sha },
            signal,
          });
        else
          await config.github.request({
            method: 'PATCH',
            path: `${base}/git/refs/${headsPath(branch)}`,
            body: { sha: commit.data.sha, force: false },
            signal,
          });
      } catch (error) {
        if (error instanceof GitHubApiError && error.status === 422)
          throw new ToolError(
            `branch: ${branch} moved while the commit was being made (${error.upstream || 'not a fast-forward'}); nothing was changed on the branch. Call push_files again to commit on top of the new head.`,
          );
        throw error;
      }
      return done();

      function done() {
        const last = commits[commits.length - 1] as string;
        const notes = [
          initialized
            ? `${owner}/${repo} was empty: GitHub's Git Data API cannot write to an empty repository, so ${files[0]?.path} was committed first through the contents API (commit ${commits[0]}).`
            : '',
          createdBranch ? `Branch ${branch} did not exist: it was created from the default branch.` : '',
        ].filter(Boolean);
        return respond(
          {
            repository: `${owner}/${repo}`,
            branch,
            commit: last,
            commits,
            createdBranch,
            initializedRepository: initialized,
            files: (files as FileSpec[]).map((f) => f.path),
          },
          [`Pushed ${files.length} file(s) to ${owner}/${repo}@${branch}: commit ${last}.`, ...notes],
        );
      }
    },
  });
}
