/**
 * Single-file writes through the contents API — create_or_update_file (reference arguments) and
 * delete_file — with GitHub's sha rules made explicit (case GH-05): without `sha` the current blob
 * sha is fetched (documented), with a stale `sha` the result is an error carrying the current
 * one. The remedy offered is always another tool call, never a local git command.
 */
import { OPEN_WORLD_HINTS, ToolError } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { respond } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { contentsPath } from '../files.js';
import { GitHubApiError } from '../github/errors.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import { repoTool, scopeNote } from './common.js';

/** The current blob sha of `path` on `branch`, or undefined when the file does not exist there. */
async function currentSha(
  config: Config,
  url: string,
  branch: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  try {
    const res = await config.github.request<{ sha?: string; type?: string } | unknown[]>({
      path: url,
      query: { ref: branch },
      signal,
    });
    if (Array.isArray(res.data)) throw new ToolError('path: is a directory, not a file');
    return res.data.sha;
  } catch (error) {
    if (error instanceof GitHubApiError && error.status === 404) return undefined;
    throw error;
  }
}

function conflict(
  path: string,
  branch: string,
  given: string | undefined,
  current: string | undefined,
): ToolError {
  if (current === undefined)
    return new ToolError(
      `Conflict: ${path} does not exist on branch ${branch} (it may have been deleted since you read it). Call again without sha to create it.`,
    );
  return new ToolError(
    `Conflict: ${path} on branch ${branch} changed since you read it — its current blob sha is ${current}${given ? `, not ${given}` : ''}. ` +
      `Read it again with get_file_contents, apply your change to the current content, and call again with sha: "${current}".`,
  );
}

const commitShape = z.object({ sha: z.string(), url: z.string(), message: z.string() });

export function fileWriteTools(config: Config): GitHubTool[] {
  const scope = scopeNote(config);
  return [
    repoTool(config, {
      name: 'create_or_update_file',
      title: 'Create or update file',
      toolset: 'repos',
      description:
        `Create or replace one file on a branch with a commit. Without sha the current blob sha is fetched for you; ` +
        `with sha the write succeeds only if the file is still at it (a conflict returns the current sha). Several files in one commit: push_files.${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        path: arg.writePath('File path'),
        content: arg.text('The whole new content of the file (UTF-8 text)', 10 * 1024 * 1024),
        message: arg.text('Commit message', 4096),
        branch: arg.branch('Branch to commit to'),
        sha: arg.sha('Current blob sha, from get_file_contents (default: fetched)').optional(),
      }),
      outputSchema: z.object({
        repository: z.string(),
        path: z.string(),
        branch: z.string(),
        created: z.boolean(),
        blobSha: z.string().nullable(),
        commit: commitShape,
      }),
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async ({ owner, repo, path, content, message, branch, sha }, { signal }) => {
        const url = contentsPath(config, owner, repo, path);
        const previous = sha ?? (await currentSha(config, url, branch, signal));
        try {
          const res = await config.github.request<{
            content: { sha: string } | null;
            commit: { sha: string; html_url: string; message: string };
          }>({
            method: 'PUT',
            path: url,
            body: {
              message,
              content: Buffer.from(content, 'utf8').toString('base64'),
              branch,
              ...(previous ? { sha: previous } : {}),
            },
            signal,
          });
          const created = res.status === 201;
          const commit = {
            sha: res.data.commit.sha,
            url: res.data.commit.html_url,
            message: res.data.commit.message,
          };
          return respond(
            {
              repository: `${owner}/${repo}`,
              path,
              branch,
              created,
              blobSha: res.data.content?.sha ?? null,
              commit,
            },
            [
              `${created ? 'Created' : 'Updated'} ${path} on ${owner}/${repo}@${branch}: commit ${commit.sha} (${commit.url}); new blob sha ${res.data.content?.sha}.`,
            ],
          );
        } catch (error) {
          // 409: the sha no longer matches; 422 "sha wasn't supplied": created meanwhile.
          if (
            error instanceof GitHubApiError &&
            (error.status === 409 || (error.status === 422 && /sha/i.test(error.upstream)))
          )
            throw conflict(path, branch, previous, await currentSha(config, url, branch, signal));
          throw error;
        }
      },
    }),

    repoTool(config, {
      name: 'delete_file',
      title: 'Delete file',
      toolset: 'repos',
      description: `Delete one file from a branch with a commit. Without sha the current blob sha is fetched; with a stale sha the result is a conflict carrying the current sha.${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        path: arg.writePath('File path'),
        message: arg.text('Commit message', 4096),
        branch: arg.branch('Branch to commit to'),
        sha: arg.sha('Current blob sha (default: fetched)').optional(),
      }),
      confirm: (a) => `Delete ${a.path} from ${a.owner}/${a.repo} on branch ${a.branch} (a new commit)?`,
      outputSchema: z.object({
        repository: z.string(),
        path: z.string(),
        branch: z.string(),
        commit: commitShape,
      }),
      annotations: OPEN_WORLD_HINTS.destructiveIdempotent,
      handler: async ({ owner, repo, path, message, branch, sha }, { signal }) => {
        const url = contentsPath(config, owner, repo, path);
        const current = sha ?? (await currentSha(config, url, branch, signal));
        if (!current)
          throw new ToolError(
            `path: ${path} does not exist on branch ${branch} of ${owner}/${repo}; nothing to delete.`,
          );
        try {
          const res = await config.github.request<{
            commit: { sha: string; html_url: string; message: string };
          }>({ method: 'DELETE', path: url, body: { message, sha: current, branch }, signal });
          const commit = {
            sha: res.data.commit.sha,
            url: res.data.commit.html_url,
            message: res.data.commit.message,
          };
          return respond({ repository: `${owner}/${repo}`, path, branch, commit }, [
            `Deleted ${path} from ${owner}/${repo}@${branch}: commit ${commit.sha} (${commit.url}).`,
          ]);
        } catch (error) {
          if (error instanceof GitHubApiError && error.status === 409)
            throw conflict(path, branch, current, await currentSha(config, url, branch, signal));
          throw error;
        }
      },
    }),
  ];
}
